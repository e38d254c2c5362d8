import { rmSync } from "node:fs"
import { afterAll } from "vitest"
import { gatewayIsRoot } from "../../src/sandbox/jail.ts"
import { conformance } from "./conformance.ts"
import { conformanceHostile } from "./conformanceHostile.ts"
import { dataDirectory, testSandboxes } from "./support.ts"

// The `local` backend (bubblewrap on this host) through the conformance suite.
const { base, data, sandboxes: root } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))

const subject = { backend: "local", sandboxes: (limits = {}) => testSandboxes(root, limits), hostFolder: data } as const
conformance(subject)
// Only a root gateway gives each workspace a filesystem of its own; otherwise it is a plain folder.
conformanceHostile(subject, { diskCapped: gatewayIsRoot() })
