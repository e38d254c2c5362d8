import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A minimal OpenAI Responses server that records what a client sends to
 * `POST /v1/responses` and answers with a scripted stream. It exists to
 * capture Codex's request shapes (test/clients/fixtures/) and to learn which
 * events Codex needs; it never stands in for parley in a test that passes
 * because parley works.
 */

export interface CapturedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/** One answer: a text message, or a call of one of the client's function tools, after a reasoning item if given. */
export type CaptureAnswer =
  & { readonly reasoning?: string }
  & (
    | { readonly type: "text"; readonly text: string }
    | { readonly type: "function_call"; readonly name: string; readonly arguments: unknown }
  )

/** Which optional events to send: Codex's needs are found by leaving them out. */
export interface EventChoice {
  readonly created?: boolean
  readonly added?: boolean
  readonly deltas?: boolean
  readonly done?: boolean
  /** `bare`: `response.completed` carries only the response's id; `none`: the stream ends without it. */
  readonly completed?: "full" | "bare" | "none"
}

export interface ResponsesCapture {
  /** Base URL including `/v1`. */
  readonly url: string
  readonly requests: ReadonlyArray<CapturedRequest>
  close(): Promise<void>
}

const sse = (event: Record<string, unknown>) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`

const outputItem = (answer: CaptureAnswer, index: number) =>
  answer.type === "text"
    ? {
      type: "message",
      id: `msg_${index}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: answer.text, annotations: [] }]
    }
    : {
      type: "function_call",
      id: `fc_${index}`,
      call_id: `call_${index}`,
      name: answer.name,
      arguments: JSON.stringify(answer.arguments),
      status: "completed"
    }

/** The stream of one answer; `choice` leaves out the events it names `false`. */
export const responseEvents = (answer: CaptureAnswer, index: number, choice: EventChoice = {}): Array<string> => {
  const item = outputItem(answer, index)
  const reasoning = answer.reasoning === undefined ? [] : [{
    type: "reasoning",
    id: `rs_${index}`,
    summary: [{ type: "summary_text", text: answer.reasoning }],
    encrypted_content: Buffer.from(`sealed:${answer.reasoning}`).toString("base64")
  }]
  const at = reasoning.length
  const response = (status: string, output: Array<unknown>) => ({
    id: `resp_${index}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: "test/m1",
    output,
    usage: status === "completed"
      ? {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15
      }
      : null
  })
  const events: Array<Record<string, unknown>> = []
  if (choice.created !== false) events.push({ type: "response.created", response: response("in_progress", []) })
  if (choice.done !== false) {
    for (const thought of reasoning) {
      events.push({ type: "response.output_item.done", output_index: 0, item: thought })
    }
  }
  if (choice.added !== false) {
    const empty = item.type === "message" ? { ...item, status: "in_progress", content: [] } : { ...item, arguments: "" }
    events.push({ type: "response.output_item.added", output_index: at, item: empty })
  }
  if (choice.deltas !== false) {
    events.push(
      answer.type === "text"
        ? {
          type: "response.output_text.delta",
          item_id: item.id,
          output_index: at,
          content_index: 0,
          delta: answer.text
        }
        : {
          type: "response.function_call_arguments.delta",
          item_id: item.id,
          output_index: at,
          delta: JSON.stringify(answer.arguments)
        }
    )
  }
  if (choice.done !== false) events.push({ type: "response.output_item.done", output_index: at, item })
  if (choice.completed === "bare") events.push({ type: "response.completed", response: { id: `resp_${index}` } })
  else if (choice.completed !== "none") {
    events.push({ type: "response.completed", response: response("completed", [...reasoning, item]) })
  }
  return events.map((event, sequence) => sse({ ...event, sequence_number: sequence }))
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

export const startResponsesCapture = async (
  answer: (body: any, index: number) => CaptureAnswer,
  choice: EventChoice = {}
): Promise<ResponsesCapture> => {
  const requests: Array<CapturedRequest> = []
  let count = 0
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req)
    const path = (req.url ?? "/").split("?")[0]!
    const body = text === "" ? undefined : JSON.parse(text)
    requests.push({ method: req.method ?? "", path, headers: { ...req.headers }, body })
    if (req.method !== "POST" || path !== "/v1/responses") {
      res.writeHead(404, { "content-type": "application/json" })
      return void res.end(
        JSON.stringify({ error: { message: `no ${req.method} ${path}`, type: "invalid_request_error" } })
      )
    }
    const index = ++count
    res.writeHead(200, { "content-type": "text/event-stream" })
    res.end(responseEvents(answer(body, index), index, choice).join(""))
  }
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
