import { type Answer, type FakeServer, type Received, startFakeServer } from "./server.ts"

export interface SlackFake extends FakeServer {
  readonly webhookUrl: string
  /** Answers the next requests with these (FIFO) before checking anything. */
  failNext(...answers: Array<Answer>): void
}

const text = (status: number, body: string, headers?: Record<string, string>): Answer => ({
  status,
  body,
  ...(headers === undefined ? {} : { headers })
})

/**
 * A Slack incoming webhook as documented: `POST /services/T/B/SECRET` with JSON
 * `{text}` or `{text, blocks}`; answers `ok`, or an HTTP error with a code in
 * plain text (`invalid_payload`, `no_service`, …).
 */
export const startSlackFake = async (path: string): Promise<SlackFake> => {
  const scripted: Array<Answer> = []
  const handle = (request: Received): Answer => {
    const next = scripted.shift()
    if (next !== undefined) return next
    if (request.method !== "POST" || request.url !== `/services/${path}`) return text(404, "no_service")
    if (request.headers["content-type"] !== "application/json" || request.json === undefined) {
      return text(400, "invalid_payload")
    }
    const { blocks, text: message, ...rest } = request.json
    if (Object.keys(rest).length > 0) return text(400, "invalid_payload")
    if (typeof message !== "string" || message === "") return text(400, "no_text")
    if (blocks !== undefined) {
      const valid = Array.isArray(blocks) &&
        blocks.every((block: any) =>
          block?.type === "markdown" && typeof block.text === "string" && Object.keys(block).length === 2
        )
      if (!valid) return text(400, "invalid_blocks")
    }
    return text(200, "ok")
  }
  const server = await startFakeServer(handle)
  return {
    ...server,
    webhookUrl: `${server.url}/services/${path}`,
    failNext: (...answers) => void scripted.push(...answers)
  }
}
