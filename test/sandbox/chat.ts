import { rmSync } from "node:fs"
import type { Reply } from "../../src/demo/upstream/types.ts"
import type { SandboxLimits } from "../../src/sandbox/SandboxSettings.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { dataDirectory, testSandboxes } from "./support.ts"

/**
 * A test gateway with real sandboxes under a fresh data folder, whose
 * database is a real file there; closing it deletes the folder.
 */
export const startSandboxGateway = async (limits: Partial<SandboxLimits> = {}) => {
  const { base, data, sandboxes } = dataDirectory()
  const database = `${data}/parley.db`
  const started = await startGateway({ sandboxes: testSandboxes(sandboxes, limits), databaseUrl: `sqlite:${database}` })
  const gateway: TestGateway = {
    ...started,
    close: async () => {
      await started.close()
      rmSync(base, { recursive: true, force: true })
    }
  }
  return { gateway, data, database, root: sandboxes }
}

export interface SandboxView {
  readonly id: string
  readonly desktop: boolean
  readonly network: boolean
  readonly owner: "key" | "account"
}

export const createSandbox = async (
  gateway: TestGateway,
  secret: string,
  body: { readonly desktop?: boolean; readonly network?: boolean } = {}
): Promise<SandboxView> => {
  const response = await postJson(`${gateway.url}/api/v1/sandboxes`, body, bearer(secret))
  if (response.status !== 201) {
    throw new Error(`creating a sandbox answered ${response.status}: ${await response.text()}`)
  }
  return (await response.json()).data.sandbox
}

/**
 * The scripted model for one-command chats: the user message is a tool's
 * input as JSON; the model calls that tool with it, then answers "done".
 * Stateless, so chats may run side by side.
 */
export const scriptOneToolCall = (gateway: TestGateway, toolName = "bash") =>
  gateway.upstream.respondWith((body): Reply => {
    const last = body.messages.at(-1)
    return last?.role === "tool"
      ? { type: "text", text: "done" }
      : { type: "tool-calls", calls: [{ name: toolName, arguments: JSON.parse(String(last?.content)) }] }
  })

export interface BashOutput {
  readonly stdout: string
  readonly stderr: string
  readonly exit_code: number | null
  readonly truncated: boolean
  readonly timed_out: boolean
}

/** The tool parts of a ChatResponse's assistant message. */
export const toolParts = (body: any): Array<any> =>
  (body?.data?.messages?.at(-1)?.parts ?? []).filter((part: { type: string }) => part.type === "dynamic-tool")

/** One bash command through POST /chat (with `scriptOneToolCall`): the tool's output. */
export const bashThroughChat = async (
  gateway: TestGateway,
  secret: string,
  sandboxId: string,
  input: { readonly command: string; readonly timeout_ms?: number }
): Promise<BashOutput> => {
  const response = await postJson(
    `${gateway.url}/api/v1/chat`,
    chatBody({ messages: [{ role: "user", content: JSON.stringify(input) }], allowedTools: ["bash"], sandboxId }),
    bearer(secret)
  )
  const body = await response.json()
  const part = toolParts(body)[0]
  if (response.status !== 200 || part?.state !== "output-available") {
    throw new Error(`bash through /chat failed (${response.status}): ${JSON.stringify(body).slice(0, 500)}`)
  }
  return part.output
}

/** Runs `during` while polling GET /health: how many polls were answered, and the slowest. */
const polled = async <A>(gateway: TestGateway, during: () => Promise<A>) => {
  const serving = { running: true }
  let slowest = 0
  let answered = 0
  const poll = (async () => {
    while (serving.running) {
      const started = Date.now()
      const response = await fetch(`${gateway.url}/health`)
      if (response.status !== 200) throw new Error(`/health answered ${response.status}`)
      await response.text()
      slowest = Math.max(slowest, Date.now() - started)
      answered++
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  // The polls are checked after `during` succeeds; a failure of `during` is reported as it is.
  let result: A
  try {
    result = await during()
  } finally {
    serving.running = false
    await poll
  }
  return { result, answered, slowest }
}

/**
 * Runs `during` while polling GET /health: the gateway must keep answering
 * every poll quickly. A slow poll once can be the whole machine's (a 2-core
 * CI running other files beside this one), so a slow run is run again; a
 * gateway that stalls is slow both times. Returns what `during` returned.
 */
export const whileServing = async <A>(gateway: TestGateway, during: () => Promise<A>): Promise<A> => {
  const first = await polled(gateway, during)
  if (first.answered > 0 && first.slowest <= 1_000) return first.result
  const again = await polled(gateway, during)
  if (again.answered === 0 || again.slowest > 1_000) {
    throw new Error(
      `the gateway stalled: ${again.answered} polls, slowest ${again.slowest} ms (before: ${first.slowest} ms)`
    )
  }
  return again.result
}
