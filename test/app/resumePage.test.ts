import { resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChatPages, startChatPages } from "../support/chatPage.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { story } from "../support/keptRuns.ts"

const PAGE = `<!doctype html><meta charset="utf-8"><title>parley resumable chat</title>
<style>body{font:15px system-ui;margin:2em;max-width:46em}.message{margin:.6em 0}.assistant{color:#124}</style>
<h1>A resumable chat with the AI SDK's Chat</h1><div id="log"></div>
<input id="input" size="40" placeholder="Ask something"><button id="send">Send</button>
<p>Status: <span id="status"></span></p><script type="module" src="/page.js"></script>`

let gateway: TestGateway
let secret: string
let pages: ChatPages

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
  pages = await startChatPages(gateway.url, PAGE, resolve(import.meta.dirname, "resumePage/page.ts"))
}, 60_000)

afterAll(async () => {
  await pages?.close()
  await gateway?.close()
})

describe("a resumable chat page (useChat({ resume: true })'s core) in Chromium", () => {
  it("reloaded mid-stream, shows the whole answer once, and its run was never cancelled", async () => {
    const answer = story(60, 40)
    gateway.upstream.enqueue(answer)
    const page = await pages.browser.newPage({ viewport: { width: 900, height: 420 } })
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    await page.goto(`${pages.url}/#key=${secret}&chat=chat-reload-1`)
    await page.fill("#input", "Tell me a long story")
    await page.click("#send")
    await page.locator(".message.assistant", { hasText: "word5" }).waitFor({ timeout: 10_000 })
    const before = await page.locator(".message.assistant").textContent()
    expect(before).not.toContain("word59")

    await page.reload()
    const assistant = page.locator(".message.assistant")
    await page.locator(".message.assistant", { hasText: "word59" }).waitFor({ timeout: 15_000 })
    await page.locator("#status", { hasText: "ready" }).waitFor({ timeout: 5_000 })
    expect(await assistant.count()).toBe(1)
    expect(await assistant.textContent()).toBe(answer.text)
    expect(gateway.upstream.requests.at(-1)!.aborted).toBe(false)
    expect(gateway.upstream.requests).toHaveLength(1)
    expect(errors).toEqual([])
    await page.screenshot({ path: pages.screenshot("resumed-after-reload.png") })
    await page.close()
  }, 60_000)

  it("a page with nothing to resume stays empty and ready (the 204)", async () => {
    const page = await pages.browser.newPage()
    await page.goto(`${pages.url}/#key=${secret}&chat=chat-never-started`)
    await page.waitForTimeout(500)
    expect(await page.locator(".message").count()).toBe(0)
    expect(await page.locator("#status").textContent()).toBe("ready")
    await page.close()
  })
})
