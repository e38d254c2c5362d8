import { Effect, Option } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { loadModelCatalog } from "../config/modelCatalog.ts"
import { vendorTypes } from "../config/providerKeys.ts"
import { serverOf } from "../mcp/toolNames.ts"
import { builtinToolNames } from "../tools/builtinToolNames.ts"
import { CliFailure } from "./CliFailure.ts"
import { closest } from "./closest.ts"
import { configurationReport } from "./setupFailure.ts"

/**
 * `--models` / `--tools` values: comma-separated; `*` allows everything,
 * `openai/*` a whole provider; an omitted or empty list allows nothing.
 */
const splitList = (raw: Option.Option<string>): ReadonlyArray<string> => {
  const entries = Option.getOrElse(raw, () => "").split(",").map((entry) => entry.trim())
  return [...new Set(entries.filter((entry) => entry !== ""))]
}

const knownTools: ReadonlyArray<string> = [...builtinToolNames].sort()

const modelEntry = /^[^\s/]+\/\S+$/

/** `*` and `<provider>/*` allow whole catalogs, so they stay valid whatever is configured. */
const isPattern = (entry: string) => entry === "*" || entry.endsWith("/*")

/**
 * The models parley knows: those of the configured providers (config file and
 * environment, as the server reads them), the routes over them and every
 * provider type's models in the model catalog, which the provider shortcuts add.
 */
const knownModels = Effect.gen(function*() {
  const config = yield* Effect.provide(Effect.service(AppConfig), AppConfig.layer)
  const configured = [
    ...config.providers.flatMap((provider) => provider.models.map((model) => `${provider.id}/${model.id}`)),
    ...config.routes.map((route) => route.id)
  ]
  const catalog = yield* Effect.promise(loadModelCatalog)
  const builtin = vendorTypes.flatMap((type) => catalog.offered(type).map((model) => `${type}/${model.id}`))
  return [...new Set([...configured, ...builtin])].sort()
}).pipe(Effect.mapError((error) => new CliFailure({ message: configurationReport(error) })))

const unknownModel = (entry: string, known: ReadonlyArray<string>) => {
  const nearest = closest(entry, known)
  const hint = nearest === undefined ? "No models are configured." : `Did you mean "${nearest}"?`
  return new CliFailure({
    message:
      `--models: unknown model "${entry}". ${hint} Use a configured model, <provider>/* for a whole provider or * for all (\`GET /api/v1/models\` lists them).`
  })
}

/**
 * Entries that could never match a model (`gpt-4o` lacks its provider) and
 * models no catalog has (`openai/gpt-4o-mni`) are typos: refuse them, naming
 * the closest known model, as `--tools` does for tools.
 */
export const parseModels = (raw: Option.Option<string>): Effect.Effect<ReadonlyArray<string>, CliFailure> =>
  Effect.gen(function*() {
    const entries = splitList(raw)
    const bad = entries.find((entry) => entry !== "*" && !modelEntry.test(entry))
    if (bad !== undefined) {
      return yield* new CliFailure({
        message:
          `--models: "${bad}" is not a model pattern. Use *, <provider>/* or <provider>/<model> (for example openai/gpt-4o-mini).`
      })
    }
    const exact = entries.filter((entry) => !isPattern(entry))
    if (exact.length === 0) return entries
    const known = yield* knownModels
    const unknown = exact.find((entry) => !known.includes(entry))
    if (unknown !== undefined) return yield* unknownModel(unknown, known)
    return entries
  })

/**
 * A list of tool names for `flag` (`--tools`, or `--approve`: docs/DESIGN.md §10):
 * built-in tools, and MCP servers' tools as `<server>__<tool>` or `<server>__*`.
 */
export const parseTools = (
  raw: Option.Option<string>,
  flag = "--tools"
): Effect.Effect<ReadonlyArray<string>, CliFailure> =>
  Effect.gen(function*() {
    const entries = splitList(raw)
    const mcp = entries.filter((entry) => serverOf(entry) !== undefined)
    const bad = entries.find((entry) => entry !== "*" && !knownTools.includes(entry) && !mcp.includes(entry))
    if (bad !== undefined) {
      const nearest = closest(bad, knownTools)
      return yield* new CliFailure({
        message: `${flag}: unknown tool "${bad}".${
          nearest === undefined ? "" : ` Did you mean "${nearest}"?`
        } Known tools: ${
          knownTools.join(", ")
        }; an MCP server's tools as <server>__<tool> or <server>__*; or * for all.`
      })
    }
    // Loaded only for MCP entries: the MCP client and its schema libraries are most of what a CLI call would load.
    if (mcp.length > 0) {
      const { checkMcpEntries } = yield* Effect.promise(() => import("./mcpToolNames.ts"))
      yield* checkMcpEntries(mcp, flag)
    }
    return entries
  })
