import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ChatRequest } from "../domain/ChatRequest.ts"
import { ChatResponse } from "../domain/ChatResponse.ts"
import { ValidationReport } from "../domain/ValidationReport.ts"
import { Authentication } from "./Authentication.ts"
import { errorAt } from "./errorSchemas.ts"

const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
  description:
    "AI SDK UI message stream (v1): `data: <chunk JSON>` per chunk, `event: tool` on tool chunks, `data: [DONE]` at the end."
})

/**
 * The body of POST /chat as the contract shows it: the domain's ChatRequest
 * (one source of the fields) plus the fields AI SDK chat transports add,
 * which the server accepts and ignores (docs/DESIGN.md §3.16), so a `useChat`
 * body validates against /openapi.json.
 */
export const ChatRequestContract = Schema.Struct({
  ...ChatRequest.fields,
  id: Schema.optionalKey(Schema.String.annotate({ description: "Chat id sent by AI SDK transports; ignored." })),
  trigger: Schema.optionalKey(
    Schema.String.annotate({ description: "`submit-message` or `regenerate-message` from AI SDK transports; ignored." })
  ),
  messageId: Schema.optionalKey(Schema.String.annotate({ description: "Sent by AI SDK transports; ignored." })),
  metadata: Schema.optionalKey(Schema.Unknown.annotate({ description: "Sent by AI SDK transports; ignored." }))
}).annotate({ identifier: "ChatRequest" })

export class ChatApi extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.post("chat", "/chat", {
      payload: ChatRequestContract,
      success: [EventStream, ChatResponse, ValidationReport],
      error: [errorAt(400), errorAt(401), errorAt(403), errorAt(409), errorAt(413), errorAt(500), errorAt(503)]
    }).annotateMerge(
      OpenApi.annotations({
        description:
          "Runs the conversation with server-side tools. stream=true (default): server-sent events; stream=false: one ChatResponse; validateOnly=true or contextStrategy=report: a ValidationReport."
      })
    )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
