import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { runServer } from "./app/gateway.ts"

runServer.pipe(NodeRuntime.runMain)
