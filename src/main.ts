import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { serve } from "./cli/serve.ts"
import { serverTeardown } from "./cli/serverTeardown.ts"

serve.pipe(NodeRuntime.runMain({ teardown: serverTeardown }))
