import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { agentClient } from "./install.ts"
import { type ClientRun, runClient, tempDir } from "./run.ts"

/**
 * Codex CLI's configuration for a Responses server at `baseUrl` (…/v1), as
 * docs/clients.md gives it: a `model_providers` entry with
 * `wire_api = "responses"` and the key read from `PARLEY_API_KEY`.
 * `analytics.enabled = false` keeps the run offline; Codex 0.171 fails on a
 * misspelt key with --strict-config, which runCodex passes.
 */
export const codexConfig = (baseUrl: string, model = "test/m1", providerLines = "") =>
  `model = "${model}"
model_provider = "parley"

[model_providers.parley]
name = "parley"
base_url = "${baseUrl}"
wire_api = "responses"
env_key = "PARLEY_API_KEY"
${providerLines}

[analytics]
enabled = false
`

/**
 * `codex exec <prompt>` in a fresh CODEX_HOME and working directory, with the
 * sandbox and approvals off (the test machine may lack the kernel features
 * Codex's Linux sandbox needs; the commands a test scripts are harmless).
 * Codex prints only the last message to stdout; its progress goes to stderr.
 */
export const runCodex = async (input: {
  readonly baseUrl: string
  readonly apiKey: string
  readonly prompt: string
  readonly model?: string
  /** Further lines of the provider's table (e.g. `stream_max_retries = 0`). */
  readonly providerLines?: string
}): Promise<ClientRun & { readonly cwd: string; readonly home: string }> => {
  const home = await tempDir("codex-home")
  const work = await tempDir("codex-work")
  try {
    await writeFile(join(home.path, "config.toml"), codexConfig(input.baseUrl, input.model, input.providerLines))
    const run = await runClient(await agentClient("codex"), [
      "exec",
      "--strict-config",
      "--skip-git-repo-check",
      "--ephemeral",
      "--color",
      "never",
      "--dangerously-bypass-approvals-and-sandbox",
      input.prompt
    ], {
      cwd: work.path,
      env: { HOME: home.path, CODEX_HOME: home.path, PARLEY_API_KEY: input.apiKey }
    })
    return { ...run, cwd: work.path, home: home.path }
  } finally {
    await home.remove()
    await work.remove()
  }
}
