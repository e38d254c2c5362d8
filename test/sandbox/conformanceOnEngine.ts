import { mkdirSync, rmSync } from "node:fs"
import { afterAll } from "vitest"
import { conformance } from "./conformance.ts"
import { conformanceHostile } from "./conformanceHostile.ts"
import { describeEngine, dockerSandboxes, type TestEngine } from "./engines.ts"
import { dataDirectory } from "./support.ts"

/** The `docker` backend on `engine` through the conformance suite (one file per engine, so they run side by side). */
export const conformanceOnEngine = (engine: TestEngine) => {
  const { base, data } = dataDirectory()
  mkdirSync(data, { recursive: true })
  afterAll(() => rmSync(base, { recursive: true, force: true }))
  describeEngine(engine, `on ${engine.name}`, () => {
    const subject = {
      backend: "docker",
      sandboxes: (limits = {}) => dockerSandboxes(engine, data, limits),
      hostFolder: data
    } as const
    conformance(subject)
    conformanceHostile(subject, { diskCapped: true })
  })
}
