import { type Answer, type FakeServer, type Received, startFakeServer } from "./server.ts"

/** A message the partner accepted: what a contact would see. */
export interface Delivered {
  readonly id: string
  readonly from: string
  readonly to: string
  readonly text: string
  readonly idempotencyKey: string
}

export interface PartnerFake extends FakeServer {
  readonly delivered: ReadonlyArray<Delivered>
  /** Answers the next valid requests with these (FIFO) instead of sending. */
  failNext(...answers: Array<Answer>): void
  /** Sends the next message but cuts the connection instead of answering, as a network failure would. */
  loseNextAnswer(): void
}

export interface PartnerFakeOptions {
  readonly token: string
  /** Accounts the token may send as. */
  readonly messengers: ReadonlyArray<string>
  /** Known contacts. */
  readonly contacts: ReadonlyArray<string>
  /** A path prefix of the API, e.g. `/partner` (default none). */
  readonly prefix?: string
  /** Answer each request after this long, so concurrent requests overlap (default 0). */
  readonly delayMs?: number
}

const problem = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message } }
})

/**
 * The partner messaging API of chat_message's wire contract:
 * `POST {prefix}/v1/messages`, `Authorization: Bearer TOKEN`,
 * `Idempotency-Key`, JSON `{from, to, text}` and nothing else. A repeated key
 * answers the first result and sends nothing.
 */
export const startPartnerFake = async (options: PartnerFakeOptions): Promise<PartnerFake> => {
  const delivered: Array<Delivered> = []
  const byKey = new Map<string, Answer>()
  const scripted: Array<Answer> = []
  let loseAnswer = false
  const handle = (request: Received): Answer => {
    if (request.method !== "POST" || request.url !== `${options.prefix ?? ""}/v1/messages`) {
      return problem(404, "not_found", "No such endpoint")
    }
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return problem(401, "unauthorized", "Invalid token")
    }
    const key = request.headers["idempotency-key"]
    if (typeof key !== "string" || key === "") {
      return problem(400, "idempotency_key_required", "Idempotency-Key is required")
    }
    if (request.headers["content-type"] !== "application/json") {
      return problem(415, "unsupported_media_type", "JSON only")
    }
    const body = request.json
    const valid = typeof body?.from === "string" && typeof body.to === "string" && typeof body.text === "string" &&
      Object.keys(body).length === 3 && body.text !== ""
    if (!valid) return problem(422, "invalid_message", "Expected {from, to, text}")
    const earlier = byKey.get(key)
    if (earlier !== undefined) return earlier
    const failure = scripted.shift()
    if (failure !== undefined) return failure
    if (!options.messengers.includes(body.from)) {
      return problem(403, "forbidden_sender", "Token may not send as this account")
    }
    if (!options.contacts.includes(body.to)) return problem(404, "unknown_contact", "No such contact")
    const id = `msg_${delivered.length + 1}`
    delivered.push({ id, from: body.from, to: body.to, text: body.text, idempotencyKey: key })
    const answer: Answer = { status: 201, body: { id, status: "sent" } }
    byKey.set(key, answer)
    if (!loseAnswer) return answer
    loseAnswer = false
    return { status: 0, body: "", drop: true }
  }
  const server = await startFakeServer(handle, options.delayMs)
  return {
    ...server,
    delivered,
    failNext: (...answers) => void scripted.push(...answers),
    loseNextAnswer: () => void (loseAnswer = true)
  }
}
