import { Effect } from "effect"
import { defineTool } from "../defineTool.ts"
import { ToolFailure } from "../Tool.ts"
import { runAction } from "./actions.ts"
import { BrowserInput } from "./BrowserInput.ts"
import type { BrowserPool } from "./BrowserPool.ts"
import { browserModelOutput } from "./modelOutput.ts"

const description = [
  "Operates a headless web browser. Pages stay open between calls: within one request, or across requests for the same sandboxId.",
  "Actions and the fields they need:",
  "navigate {url, timeoutMs?}; click {selector}; fill {selector, value}; press {key, selector?};",
  "select {selector, values}; extract {selector?, maxChars?} returns the page's (or the element's) readable text;",
  "screenshot {selector?, fullPage?} returns a PNG image; back; wait_for {selector? | text?, timeoutMs?}.",
  "Every answer has the current url and title. Only public http(s) addresses are reachable unless the server allows others."
].join(" ")

/** The `browser` tool (docs/DESIGN.md §3.12) over the gateway's shared browser. */
export const makeBrowserTool = (pool: BrowserPool["Service"]) =>
  defineTool({
    name: "browser",
    description,
    category: "browser automation",
    inputSchema: BrowserInput,
    optionalSandbox:
      "Pages and cookies persist across requests naming the same sandbox; without one they last one request.",
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt", "generalComputerSystemPrompt"],
    toModelOutput: browserModelOutput,
    execute: (input, execution) =>
      pool.use(
        // Without a sandbox the run's pages are its own: defineTool passes every call of a run the same context object.
        // They close when the run does (its scope: a /chat run's, a /mcp call's); else they idle out.
        execution.sandboxId === null || execution.sandboxId === ""
          ? { request: execution.context, endsWith: execution.runScope }
          : { sandboxId: execution.sandboxId, keyId: execution.key.id },
        execution.signal,
        (session) => runAction(session, input)
      ).pipe(
        Effect.mapError((error) => new ToolFailure(error.message)),
        Effect.withSpan("browser.execute", { attributes: { "browser.action": input.action } })
      )
  })
