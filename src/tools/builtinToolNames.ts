/**
 * The names of the built-in tools (docs/DESIGN.md §3.12), for checks that run
 * without building the tools, such as the CLI's `--tools`. ToolRegistry.layer
 * registers exactly these (test/tools/ToolRegistry.test.ts holds them together).
 */
export const builtinToolNames: ReadonlyArray<string> = [
  "jobsite_reply_generator",
  "bash",
  "computer",
  "browser",
  "workplace_message",
  "chat_message"
]
