import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers on ephemeral ports; files run in parallel processes.
    pool: "forks"
  }
})
