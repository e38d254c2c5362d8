import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { callBrowser } from "./support.ts"

// A "browser" that records each start and dies at once.
const dir = mkdtempSync(join(tmpdir(), "parley-browser-"))
const starts = join(dir, "starts")
const brokenBrowser = join(dir, "chromium")
writeFileSync(brokenBrowser, `#!/bin/sh\necho start >> "${starts}"\nexit 1\n`)
chmodSync(brokenBrowser, 0o755)

const pool = BrowserPool.layerWith({ policy: { allowPrivate: false, allowedHosts: [] }, executablePath: brokenBrowser })

layer(pool, { excludeTestServices: true })("a browser that cannot start", (it) => {
  it.effect("fails each action with the reason and tries to start again on the next", () =>
    Effect.gen(function*() {
      for (let attempt = 1; attempt <= 2; attempt++) {
        const failure = yield* Effect.flip(
          callBrowser({ action: "navigate", url: "https://example.com/" }, { request: {} })
        )
        assert.strictEqual(failure.name, "ToolFailure")
        assert.include(failure.message, `Could not start the browser (${brokenBrowser})`)
        assert.strictEqual(readFileSync(starts, "utf8").trim().split("\n").length, attempt)
      }
      assert.strictEqual(yield* (yield* BrowserPool).openSessions, 0)
    }))
})
