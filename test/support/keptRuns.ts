import { bearer } from "./http.ts"

/** Helpers for resumable runs (docs/DESIGN.md §16): a streamed chat that outlives its client, resumed and stopped. */

/** A streamed `ui` chat under the chat `id`; `onDisconnect` absent: the default (cancel). */
export const startChat = (
  baseUrl: string,
  secret: string,
  id: string,
  extra: Record<string, unknown> = { onDisconnect: "continue" },
  signal?: AbortSignal
) =>
  fetch(`${baseUrl}/api/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer(secret) },
    body: JSON.stringify({
      id,
      model: "test/m1",
      messages: [{ role: "user", content: "Tell me a story" }],
      stream: true,
      ...extra
    }),
    ...(signal === undefined ? {} : { signal })
  })

export const resume = (baseUrl: string, secret: string, id: string) =>
  fetch(`${baseUrl}/api/v1/chat/${id}/stream`, { headers: bearer(secret) })

export const stopRun = (baseUrl: string, secret: string, id: string) =>
  fetch(`${baseUrl}/api/v1/chat/${id}/stop`, { method: "POST", headers: bearer(secret) })

/** Reads a body to its end, as text. */
export const readAll = async (response: Response): Promise<string> => await response.text()

/** Reads until the text so far includes `marker`; the reader stays open. */
export const readUntil = async (response: Response, marker: string, timeoutMs = 10_000) => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  const deadline = Date.now() + timeoutMs
  while (!text.includes(marker)) {
    if (Date.now() > deadline) throw new Error(`no ${marker} within ${timeoutMs} ms: ${text}`)
    const { done, value } = await reader.read()
    if (done) throw new Error(`stream ended before ${marker}: ${text}`)
    text += decoder.decode(value, { stream: true })
  }
  return { text, reader }
}

/** Reads what is left of a stream. */
export const drain = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
  while (!(await reader.read()).done) { /* to the end */ }
}

/** The `finish` chunk of a UI message stream, parsed. */
export const finishOf = (text: string): { finishReason: string; messageMetadata: Record<string, unknown> } => {
  const line = text.split("\n").find((l) => l.startsWith("data: {\"type\":\"finish\""))
  if (line === undefined) throw new Error(`no finish chunk in ${text}`)
  return JSON.parse(line.slice("data: ".length))
}

/** The text deltas of a UI message stream, joined. */
export const textOf = (text: string): string =>
  text.split("\n").filter((l) => l.startsWith("data: {\"type\":\"text-delta\"")).map((l) =>
    JSON.parse(l.slice("data: ".length)).delta
  ).join("")

/** A story of `words` words, streamed by the scripted upstream one word every `chunkDelayMs`. */
export const story = (words: number, chunkDelayMs: number) => ({
  type: "text" as const,
  text: Array.from({ length: words }, (_, i) => `word${i}`).join(" "),
  chunkDelayMs
})
