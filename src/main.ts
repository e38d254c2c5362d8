import { NodeRuntime } from "@effect/platform-node"
import { runServer } from "./server.ts"

runServer.pipe(NodeRuntime.runMain)
