import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Upstream } from "../../../src/demo/upstream/types.ts"
import { type BulkUpstream, startBulkUpstream } from "./bulkUpstream.ts"
import { type GatewayProcess, startGatewayProcess } from "./gatewayProcess.ts"

/** The gateway in its own process with the scripted provider and, as `bulk/b1`, a bulk one of `totalBytes`. */
export interface BulkGateway {
  readonly upstream: Upstream
  readonly bulk: BulkUpstream
  readonly gateway: GatewayProcess
  readonly stop: () => Promise<void>
}

export const startBulkGateway = async (totalBytes: number, env: Record<string, string>): Promise<BulkGateway> => {
  const upstream = await startUpstream({ apiKey: "sk-upstream-secret-4b1d" })
  const bulk = await startBulkUpstream(totalBytes)
  const gateway = await startGatewayProcess({
    upstreamUrl: upstream.url,
    providers: [{
      id: "bulk",
      type: "openai-compatible",
      baseURL: bulk.url,
      apiKey: "sk-bulk",
      models: [{ id: "b1", name: "Bulk", categories: ["chat"] }]
    }],
    env
  })
  return {
    upstream,
    bulk,
    gateway,
    stop: async () => {
      await gateway.stop()
      await Promise.all([upstream.close(), bulk.close()])
    }
  }
}
