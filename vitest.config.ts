import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability suite has its own run (`npm run test:reliability`, vitest.reliability.config.ts).
    exclude: ["test/reliability/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers on ephemeral ports; each file runs in a process of its own, as many at once as
    // vitest's default (cores − 1: one at a time on a 2-core machine; docs/testing.md).
    pool: "forks"
  }
})
