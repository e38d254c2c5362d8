import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability suite has its own run (`npm run test:reliability`, vitest.reliability.config.ts).
    exclude: ["test/reliability/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers on ephemeral ports; each file runs in a process of its own. Most files spend their
    // time waiting on those servers, so at least two run at once even on a 2-core machine (vitest's default,
    // cores − 1, would run one at a time there; docs/testing.md).
    pool: "forks",
    maxWorkers: Math.max(2, availableParallelism() - 1)
  }
})
