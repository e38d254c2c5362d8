export { startUpstream } from "./server.ts"
export type { RecordedRequest, Reply, ToolCallReply, Upstream, UpstreamOptions, UsageIn } from "./types.ts"
