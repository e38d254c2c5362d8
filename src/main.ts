import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { runServer } from "./server.ts"

runServer.pipe(NodeRuntime.runMain)
