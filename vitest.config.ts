import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { defineConfig } from "vitest/config"

// The CLI, build and guide tests start Node hundreds of times on the same code: V8's compile cache spares each
// start the compiling (the workers below inherit it too).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "node-compile-cache")

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability suite has its own run (`npm run test:reliability`, vitest.reliability.config.ts).
    exclude: ["test/reliability/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers on ephemeral ports, in worker processes that run one file after another and keep
    // the modules they loaded (importing the gateway anew took about a second per file). Most files spend their
    // time waiting on those servers, so at least two run at once even on a 2-core machine (vitest's default,
    // cores − 1, would run one at a time there; docs/testing.md).
    pool: "forks",
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1)
  }
})
