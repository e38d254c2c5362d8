import { Effect } from "effect"
import { resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChatPages, startChatPages } from "../support/chatPage.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { makeTestTool } from "../support/tools.ts"

const PAGE = `<!doctype html><meta charset="utf-8"><title>parley approvals</title>
<style>body{font:15px system-ui;margin:2em;max-width:46em}.message{margin:.6em 0}.tool{border:1px solid #bbb;
border-radius:6px;padding:.5em;margin:.3em 0}.approval-requested{border-color:#c80}button{margin-left:.5em}</style>
<h1>Approvals with the AI SDK's Chat</h1><div id="log"></div>
<input id="input" size="40" placeholder="Ask something"><button id="send">Send</button>
<p>Status: <span id="status"></span></p><script type="module" src="/page.js"></script>`

let gateway: TestGateway
let secret: string
let pages: ChatPages
const runs: Array<unknown> = []

beforeAll(async () => {
  gateway = await startGateway({
    tools: [makeTestTool({
      name: "dangerous",
      execute: (input: { text: string }) => Effect.sync(() => (runs.push(input), { done: input.text }))
    })]
  })
  ;({ secret } = await gateway.createKey({ approve: ["dangerous"] }))
  pages = await startChatPages(gateway.url, PAGE, resolve(import.meta.dirname, "approvalPage/page.ts"))
}, 60_000)

afterAll(async () => {
  await pages?.close()
  await gateway?.close()
})

describe("a chat page on the AI SDK's Chat (useChat's core) in Chromium", () => {
  it("shows the approval request, approves it, and renders the tool's output and the answer", async () => {
    gateway.upstream.enqueue(
      { type: "tool-calls", calls: [{ id: "call_1", name: "dangerous", arguments: { text: "ping" } }] },
      { type: "text", text: "All done: ping" }
    )
    const page = await pages.browser.newPage({ viewport: { width: 900, height: 560 } })
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    await page.goto(`${pages.url}/#key=${secret}`)
    await page.fill("#input", "Please run the dangerous tool")
    await page.click("#send")

    const request = page.locator(".tool.approval-requested")
    await request.waitFor({ timeout: 10_000 })
    expect(await request.textContent()).toContain(`dangerous({"text":"ping"}) waits for your approval`)
    expect(runs).toEqual([])
    await page.screenshot({ path: pages.screenshot("approval-requested.png") })

    await page.click("text=Approve")
    await page.locator(".tool.output-available").waitFor({ timeout: 10_000 })
    await page.locator("text=All done: ping").waitFor({ timeout: 10_000 })
    expect(await page.locator(".output").textContent()).toBe(`Output: {"done":"ping"}`)
    expect(await page.locator("#status").textContent()).toBe("ready")
    expect(runs).toEqual([{ text: "ping" }])
    // One assistant message, continued in place after the approval.
    expect(await page.locator(".message.assistant").count()).toBe(1)
    expect(errors).toEqual([])
    await page.screenshot({ path: pages.screenshot("approval-approved.png") })
    await page.close()
  }, 60_000)
})
