/** An output item as the response lists it (`message`, `reasoning`, `function_call`, `mcp_call`…). */
export type OutputItem = Record<string, unknown> & { readonly id: string; readonly type: string }

/** A stream event before its `sequence_number`, which the stream numbers (./encode.ts). */
export type ItemEvent = Record<string, unknown> & { readonly type: string }
