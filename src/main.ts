import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { serve } from "./cli/serve.ts"

serve.pipe(NodeRuntime.runMain)
