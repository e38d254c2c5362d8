import type { LoadRequest } from "./load.ts"

/**
 * The traffic of a busy front end, in proportion: streamed and JSON chats,
 * a tool loop (chat_message to a partner URL the outbound policy refuses, so
 * the tool fails and the model answers), validation, the catalog, and the
 * usual client mistakes. Each label's answers must be among `expected`.
 */
interface MixEntry {
  readonly weight: number
  readonly expected: ReadonlyArray<number>
  readonly request: (key: string, i: number) => LoadRequest
}

const json = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" })
const chat = (label: string, key: string, body: Record<string, unknown>): LoadRequest => ({
  label,
  method: "POST",
  path: "/api/v1/chat",
  headers: json(key),
  body: JSON.stringify({ model: "test/m1", messages: [{ role: "user", content: `hello ${label}` }], ...body })
})

const entries: Record<string, MixEntry> = {
  stream: { weight: 35, expected: [200], request: (key) => chat("stream", key, {}) },
  json: { weight: 20, expected: [200], request: (key) => chat("json", key, { stream: false }) },
  tools: {
    weight: 10,
    expected: [200],
    request: (key, i) =>
      chat("tools", key, {
        stream: i % 2 === 0,
        allowedTools: ["chat_message"],
        context: { partnerToken: "partner-token-load", defaultMessengerId: "acct-1" },
        toolContext: { chat_message: { partnerApiUrl: "http://127.0.0.1:9/" } }
      })
  },
  validate: {
    weight: 5,
    expected: [200],
    request: (key) => chat("validate", key, { validateOnly: true, promptType: "bossJobsiteLocalSystemPrompt" })
  },
  catalog: {
    weight: 10,
    expected: [200],
    request: (key, i) => ({
      label: "catalog",
      method: "GET",
      path: ["/api/v1/models", "/api/v1/tools", "/api/v1/prompt-types", "/api/v1/config-schema"][i % 4]!,
      headers: { authorization: `Bearer ${key}` }
    })
  },
  badJson: {
    weight: 5,
    expected: [400],
    request: (key) => ({
      label: "badJson",
      method: "POST",
      path: "/api/v1/chat",
      headers: json(key),
      body: "{\"model\":"
    })
  },
  badModel: { weight: 5, expected: [400, 403], request: (key) => chat("badModel", key, { model: "nope" }) },
  noKey: {
    weight: 5,
    expected: [401],
    request: () => ({
      label: "noKey",
      method: "GET",
      path: "/api/v1/models",
      headers: { authorization: "Bearer pk_wrong" }
    })
  },
  notFound: {
    weight: 5,
    expected: [404],
    request: (key) => ({
      label: "notFound",
      method: "GET",
      path: "/api/v1/nothing",
      headers: { authorization: `Bearer ${key}` }
    })
  }
}

const wheel: ReadonlyArray<string> = Object.entries(entries).flatMap(([label, entry]) =>
  Array.from({ length: entry.weight }, () => label)
)

/** The i-th request of the mix (deterministic: the same run sends the same traffic). */
export const mixedRequest = (key: string) => (i: number): LoadRequest => {
  const label = wheel[(i * 37) % wheel.length]!
  return entries[label]!.request(key, i)
}

/** Answers outside each label's expected statuses, as `label status × count`. */
export const unexpectedAnswers = (
  byLabel: Readonly<Record<string, Readonly<Record<number, number>>>>
): Array<string> =>
  Object.entries(byLabel).flatMap(([label, statuses]) =>
    Object.entries(statuses)
      .filter(([status]) => !entries[label]!.expected.includes(Number(status)))
      .map(([status, count]) => `${label} ${status} × ${count}`)
  )
