import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Reply } from "../../../src/demo/upstream/types.ts"
import { createSandbox, toolParts } from "../../sandbox/chat.ts"
import { decodePng } from "../../sandbox/png.ts"
import type { TestGateway } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"

/** The computer tool through /chat on the sandboxes of the gateway `start` gives (a backend's). */
export const computerThroughChat = (start: () => Promise<TestGateway>) => {
  let gateway: TestGateway
  let secret: string
  let desktopId: string

  beforeAll(async () => {
    gateway = await start()
    ;({ secret } = await gateway.createKey({ tools: ["bash", "computer"] }))
    ;({ id: desktopId } = await createSandbox(gateway, secret, { desktop: true }))
  })
  afterAll(() => gateway.close())

  const call = (name: string, args: unknown): Reply => ({ type: "tool-calls", calls: [{ name, arguments: args }] })

  const chat = async (body: Record<string, unknown>) => {
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["bash", "computer"], ...body }),
      bearer(secret)
    )
    expect(response.status).toBe(200)
    return response.json()
  }

  /** The tool messages of the upstream's requests, by call id. */
  const toolMessagesSent = (from: number): Map<string, string> =>
    new Map(
      gateway.upstream.requests.slice(from).flatMap((request) =>
        request.body.messages.filter((m: { role: string }) => m.role === "tool").map((m: any) =>
          [m.tool_call_id, m.content] as const
        )
      )
    )

  describe("the computer tool through /chat", () => {
    let history: Array<unknown> = []
    let screenshotCallId = ""
    let screenshotSent = ""

    it("opens an X client, takes a screenshot, clicks and types", async () => {
      gateway.upstream.enqueue(
        call("bash", {
          command:
            "stdbuf -oL xev -geometry 240x160+400+300 > xev.log 2>&1 & xmessage -geometry +40+40 'hello parley' & sleep 0.6; echo started"
        }),
        call("computer", { action: "screenshot" }),
        call("computer", { action: "left_click", coordinate: [460, 360] }),
        call("computer", { action: "type", text: "hi" }),
        call("computer", { action: "key", text: "Return" }),
        call("computer", { action: "cursor_position" }),
        call("computer", { action: "left_click", coordinate: [1024, 10] }),
        call("bash", {
          // xev logs the events when it gets to them, later on a loaded machine: wait for the last (up to 10 s).
          command: "for i in $(seq 100); do grep -q Return xev.log && break; sleep 0.1; done; " +
            "grep -c ButtonPress xev.log; grep -o 'keysym 0x[0-9a-f]*, [A-Za-z]*' xev.log | sort -u"
        }),
        { type: "text", text: "done" }
      )
      const requestsBefore = gateway.upstream.requests.length
      const body = await chat({ sandboxId: desktopId, messages: [{ role: "user", content: "Use the desktop" }] })
      const parts = toolParts(body)
      expect(parts.map((part) => part.state)).toEqual([
        ...Array(6).fill("output-available"),
        "output-error",
        "output-available"
      ])
      expect(parts[0].output.stdout).toBe("started\n")

      const shot = parts[1].output
      expect(shot).toMatchObject({
        action: "screenshot",
        text: "Screenshot of the 1024x768 display.",
        screenshot: { type: "media", mediaType: "image/png", width: 1024, height: 768 }
      })
      const png = decodePng(Buffer.from(shot.screenshot.data, "base64"))
      expect([png.width, png.height]).toEqual([1024, 768])
      const background = png.pixel(900, 700).join()
      const drawn = (x0: number, y0: number, x1: number, y1: number) => {
        let count = 0
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (png.pixel(x, y).join() !== background) count++
        return count
      }
      expect(drawn(40, 40, 160, 100), "xmessage's window").toBeGreaterThan(1_000)
      expect(drawn(400, 300, 640, 460), "xev's window").toBeGreaterThan(10_000)
      expect(drawn(700, 500, 1000, 760), "empty desktop").toBe(0)

      expect(parts[2].output.text).toBe("left click at (460, 360).")
      expect(parts[3].output.text).toBe("Typed 2 characters.")
      expect(parts[5].output).toMatchObject({ cursor: { x: 460, y: 360 }, text: "The pointer is at (460, 360)." })
      expect(parts[6].errorText).toContain("off the 1024x768 display")
      const [presses, ...keys] = parts[7].output.stdout.trim().split("\n")
      expect(Number(presses)).toBeGreaterThanOrEqual(1)
      expect(keys).toEqual(expect.arrayContaining(["keysym 0x68, h", "keysym 0x69, i", "keysym 0xff0d, Return"]))

      // The model got the screenshot as an image part (the OpenAI-compatible wire carries tool content as JSON).
      screenshotCallId = parts[1].toolCallId
      screenshotSent = toolMessagesSent(requestsBefore).get(screenshotCallId)!
      const content = JSON.parse(screenshotSent)
      expect(content).toEqual([
        { type: "text", text: "Screenshot of the 1024x768 display." },
        { type: "file", mediaType: "image/png", data: { type: "data", data: shot.screenshot.data } }
      ])
      history = body.data.messages
    })

    it("sends screenshots in the client's history to the model the same way", async () => {
      expect(history.length).toBeGreaterThan(0)
      gateway.upstream.enqueue({ type: "text", text: "seen" })
      const requestsBefore = gateway.upstream.requests.length
      await chat({ sandboxId: desktopId, messages: [...history, { role: "user", content: "What did you see?" }] })
      expect(toolMessagesSent(requestsBefore).get(screenshotCallId)).toBe(screenshotSent)
    })

    it("leaves the pointer where it was moved while no window is open", async () => {
      // Each action is an X client of its own: with none open, every action is the display's last client leaving.
      const fresh = await createSandbox(gateway, secret, { desktop: true })
      gateway.upstream.enqueue(
        call("computer", { action: "mouse_move", coordinate: [100, 200] }),
        call("computer", { action: "cursor_position" }),
        call("computer", { action: "screenshot" }),
        // A window covering the display reports where the next click lands.
        call("bash", {
          command: "stdbuf -oL xev -geometry 1024x768+0+0 > xev.log 2>&1 & " +
            "until grep -q Expose xev.log 2>/dev/null; do sleep 0.05; done; echo started"
        }),
        call("computer", { action: "left_click" }),
        call("bash", {
          command: "until grep -q ButtonRelease xev.log; do sleep 0.05; done; " +
            "grep -A1 ButtonPress xev.log | grep -o 'root:([0-9]*,[0-9]*)'"
        }),
        { type: "text", text: "done" }
      )
      const parts = toolParts(await chat({ sandboxId: fresh.id }))
      expect(parts.map((part) => part.state)).toEqual(Array(6).fill("output-available"))
      expect(parts[1].output).toMatchObject({ cursor: { x: 100, y: 200 }, text: "The pointer is at (100, 200)." })
      expect(parts[3].output.stdout).toBe("started\n")
      expect(parts[4].output.text).toBe("left click at the pointer.")
      expect(parts[5].output.stdout).toBe("root:(100,200)\n")
    })

    it("reports a sandbox without a desktop to the model", async () => {
      const plain = await createSandbox(gateway, secret)
      gateway.upstream.enqueue(call("computer", { action: "screenshot" }), { type: "text", text: "no desktop" })
      const [part] = toolParts(await chat({ sandboxId: plain.id }))
      expect(part.state).toBe("output-error")
      expect(part.errorText).toContain(`Sandbox ${plain.id} has no desktop`)
    })
  })
}
