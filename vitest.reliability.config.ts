import { defineConfig } from "vitest/config"

/**
 * `npm run test:reliability` (full size) and the CI-sized run in `.ci/run`:
 * faults, load, soak, fuzzing, the security matrix. One file at a time: the
 * load and soak tests measure the gateway, and two of them side by side on two
 * cores would measure each other.
 */
export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ["default", "./test/support/reliability/summaryReporter.ts"]
  }
})
