/**
 * The fuzz gateway (`startFuzzGateway`) as a process of its own, for the
 * reliability suite to count its exits (issue 32 part 5): tells its parent
 * `{url, secret}` once it listens, and stops when the parent goes.
 */
import { startFuzzGateway } from "./startFuzzGateway.ts"

const { gateway, secret } = await startFuzzGateway()
process.send!({ url: gateway.url, secret })
process.once("disconnect", () => void gateway.close().finally(() => process.exit(0)))
