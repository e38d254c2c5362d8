import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

// The CLI, build and guide tests start Node hundreds of times on the same code: V8's compile cache spares each
// start the compiling (the workers below inherit it too).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "node-compile-cache")

/**
 * The guides' commands (test/docs/guides.test.ts) take minutes in one file, about half the suite: they start
 * first and the other workers share the rest meanwhile. vitest would order files by their last durations, which
 * a fresh clone (CI, after `npm ci`) does not have, and start this small file near the end.
 */
class GuidesFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const sorted = await super.sort(files)
    const guides = (file: TestSpecification) => file.moduleId.endsWith("/test/docs/guides.test.ts")
    return [...sorted.filter(guides), ...sorted.filter((file) => !guides(file))]
  }
}

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
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: GuidesFirst }
  }
})
