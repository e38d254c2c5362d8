export { startUpstream } from "./server.ts"
export type {
  LongProgress,
  RecordedRequest,
  Reply,
  ToolCallReply,
  Upstream,
  UpstreamOptions,
  UsageIn
} from "./types.ts"
