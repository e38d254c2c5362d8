import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability suite has its own run (`npm run test:reliability`, vitest.reliability.config.ts).
    exclude: ["test/reliability/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers on ephemeral ports; files run in parallel processes.
    pool: "forks"
  }
})
