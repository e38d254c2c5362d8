import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import { readFileSync } from "node:fs"
import { expect } from "vitest"

/**
 * The Open Responses specification's OpenAPI document (2026-04-24), kept as
 * a fixture with its licence (test/protocols/responses/openresponses/), and
 * checks of parley's answers against it as the specification's compliance
 * suite makes them: a whole answer, and the last response a stream carries,
 * against `ResponseResource`; every streaming event against the schema of
 * its `type`; the stream's framing as the specification's prose asks (each
 * `event` named as its `type`, `data: [DONE]` last).
 */
export const document = JSON.parse(
  readFileSync(new URL("../protocols/responses/openresponses/openapi-2026-04-24.json", import.meta.url), "utf8")
) as Record<string, any>

// `discriminator` is left to `oneOf` itself: the document puts one beside an `anyOf` too, which ajv's option refuses.
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addSchema({ ...document, $id: "open-responses" })

const schema = (name: string): ValidateFunction => ajv.getSchema(`open-responses#/components/schemas/${name}`)!

const problemsOf = (validate: ValidateFunction, value: unknown, what: string): Array<string> =>
  validate(value)
    ? []
    : (validate.errors ?? []).map((error) =>
      `${what}${error.instancePath}: ${error.message} ${JSON.stringify(error.params)}`
    )

const responseResource = schema("ResponseResource")

/** What is wrong with a response object by the document's `ResponseResource` (none: it validates). */
export const responseProblems = (response: unknown, what = "response"): Array<string> =>
  problemsOf(responseResource, response, what)

const streamed = document.paths["/responses"].post.responses["200"].content["text/event-stream"].schema.oneOf as Array<
  { readonly $ref: string }
>

/** The streaming events the document defines, by their `type`, each with its schema. */
export const eventSchemas: ReadonlyMap<string, ValidateFunction> = new Map(streamed.map(({ $ref }) => {
  const name = $ref.split("/").at(-1)!
  return [document.components.schemas[name].properties.type.enum[0] as string, schema(name)]
}))

export interface StreamEvent {
  readonly event: string | undefined
  readonly data: Record<string, any>
}

export interface ReadStream {
  readonly events: ReadonlyArray<StreamEvent>
  /** The stream's last `data` was `[DONE]`, and nothing came after it. */
  readonly done: boolean
  /** Framing the prose forbids: an event without a name, or named otherwise than its `type`; data that is not JSON. */
  readonly problems: ReadonlyArray<string>
}

/** A server-sent event stream's events, read line by line as the specification frames them. */
export const readStream = (text: string): ReadStream => {
  const events: Array<StreamEvent> = []
  const problems: Array<string> = []
  let done = false
  for (const block of text.split("\n\n")) {
    if (block === "") continue
    if (done) problems.push(`after [DONE]: ${block}`)
    const lines = block.split("\n")
    const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length)
    const data = lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice("data: ".length)).join("\n")
    if (data === "[DONE]") {
      done = true
      if (event !== undefined) problems.push(`[DONE] named ${event}`)
      continue
    }
    let parsed: Record<string, any>
    try {
      parsed = JSON.parse(data)
    } catch {
      problems.push(`not JSON: ${block}`)
      continue
    }
    if (event !== parsed.type) problems.push(`event ${event} carries type ${parsed.type}`)
    events.push({ event, data: parsed })
  }
  return { events, done, problems }
}

/** The stream's last response object: the one its `response.completed`, `.failed` or `.incomplete` carried. */
export const finalResponse = (events: ReadonlyArray<StreamEvent>): Record<string, any> | undefined =>
  events.findLast(({ data }) => /^response\.(completed|failed|incomplete)$/.test(data.type))?.data.response

export interface StreamCheck {
  readonly read: ReadStream
  /** Every way the stream departs from the document, empty when it complies. */
  readonly problems: ReadonlyArray<string>
  /** The types of the events the document does not define (extensions), in order, once each. */
  readonly undefinedTypes: ReadonlyArray<string>
}

/** Event and item types the document does not define, which a check sets aside. */
export interface Extensions {
  readonly events?: ReadonlyArray<string>
  readonly items?: ReadonlyArray<string>
}

// The event as the document would see it without the extension items it carries (an added item of one is null).
const withoutItems = (data: Record<string, any>, items: ReadonlyArray<string>) => {
  if (items.length === 0) return data
  const foreign = (item: any) => item != null && items.includes(item.type)
  const response = data.response
  return {
    ...data,
    ...(foreign(data.item) ? { item: null } : {}),
    ...(response?.output === undefined ? {} : {
      response: { ...response, output: response.output.filter((item: unknown) => !foreign(item)) }
    })
  }
}

/**
 * A stream checked against the document: its framing, each event against
 * its type's schema (an event type the document does not define is listed
 * in `undefinedTypes`, and is a problem unless `extensions.events` names
 * it; an item of a type in `extensions.items` is set aside), the
 * `sequence_number`s one after another from `firstSequence`, a terminal
 * `[DONE]`, and (`ended`, as a stream whose run ended has) a last response
 * (`response.completed`, `.failed` or `.incomplete`).
 */
export const checkStream = (
  text: string,
  { ended = true, extensions = {}, firstSequence = 0 }: {
    readonly extensions?: Extensions
    readonly firstSequence?: number
    readonly ended?: boolean
  } = {}
): StreamCheck => {
  const read = readStream(text)
  const problems = [...read.problems]
  const undefinedTypes: Array<string> = []
  read.events.forEach(({ data }, index) => {
    const validate = eventSchemas.get(data.type)
    if (validate === undefined) {
      if (!undefinedTypes.includes(data.type)) undefinedTypes.push(data.type)
      if (!extensions.events?.includes(data.type)) problems.push(`event ${index}: ${data.type} is not in the document`)
    } else {
      problems.push(
        ...problemsOf(validate, withoutItems(data, extensions.items ?? []), `event ${index} (${data.type})`)
      )
    }
    if (data.sequence_number !== firstSequence + index) {
      problems.push(`event ${index}: sequence_number ${data.sequence_number}, not ${firstSequence + index}`)
    }
  })
  if (!read.done) problems.push("the stream does not end with data: [DONE]")
  // The last response is validated with its event.
  if (ended && finalResponse(read.events) === undefined) problems.push("no response.completed, .failed or .incomplete")
  return { read, problems, undefinedTypes }
}

/** A whole answer of the door: 200 as JSON, its body valid by the document; the body. */
export const validAnswer = async (answer: Response) => {
  expect(answer.status).toBe(200)
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/)
  const response = await answer.json()
  expect(responseProblems(response)).toEqual([])
  return response
}

/** A stream of the door: 200 as server-sent events, valid by the document (`checkStream`); its events' data. */
export const validStream = async (answer: Response, options?: Parameters<typeof checkStream>[1]) => {
  expect(answer.status).toBe(200)
  expect(answer.headers.get("content-type")).toBe("text/event-stream")
  const check = checkStream(await answer.text(), options)
  expect(check.problems).toEqual([])
  return check.read.events.map(({ data }) => data)
}

const socketError = schema("WebSocketErrorEvent")
const socketCreate = schema("WebSocketResponseCreateEvent")

/** What is wrong with a message a client sends in WebSocket mode, by the document's `WebSocketResponseCreateEvent`. */
export const createMessageProblems = (message: unknown): Array<string> =>
  problemsOf(socketCreate, message, "response.create")

/**
 * A WebSocket turn's messages checked against the document: a turn refused
 * before it began is one `WebSocketErrorEvent`; any other is the streaming
 * events, each valid by its type's schema, numbered from 0, ending with the
 * last response, no `[DONE]` (a message is one event). Every way it departs.
 */
export const socketTurnProblems = (events: ReadonlyArray<Record<string, any>>): Array<string> => {
  if (events.length === 1 && events[0]!.type === "error") return problemsOf(socketError, events[0], "error message")
  const problems: Array<string> = []
  events.forEach((data, index) => {
    const validate = eventSchemas.get(data.type)
    if (validate === undefined) problems.push(`message ${index}: ${data.type} is not in the document`)
    else problems.push(...problemsOf(validate, data, `message ${index} (${data.type})`))
    if (data.sequence_number !== index) problems.push(`message ${index}: sequence_number ${data.sequence_number}`)
  })
  if (finalResponse(events.map((data) => ({ event: data.type, data }))) === undefined) {
    problems.push("no response.completed, .failed or .incomplete")
  }
  return problems
}
