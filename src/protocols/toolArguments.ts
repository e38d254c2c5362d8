/** A tool call's input as the JSON text of its arguments (a provider that gives it as text has given the text). */
export const argumentsOf = (input: unknown): string => typeof input === "string" ? input : JSON.stringify(input ?? {})
