import { Effect, Option } from "effect"
import { builtinToolNames } from "../tools/builtinToolNames.ts"
import { CliFailure } from "./CliFailure.ts"

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

/** Entries that could never match a model (`gpt-4o` lacks its provider) are typos: refuse them. */
export const parseModels = (raw: Option.Option<string>): Effect.Effect<ReadonlyArray<string>, CliFailure> => {
  const entries = splitList(raw)
  const bad = entries.find((entry) => entry !== "*" && !modelEntry.test(entry))
  return bad === undefined ? Effect.succeed(entries) : Effect.fail(
    new CliFailure({
      message:
        `--models: "${bad}" is not a model pattern. Use *, <provider>/* or <provider>/<model> (for example openai/gpt-4o-mini).`
    })
  )
}

export const parseTools = (raw: Option.Option<string>): Effect.Effect<ReadonlyArray<string>, CliFailure> => {
  const entries = splitList(raw)
  const bad = entries.find((entry) => entry !== "*" && !knownTools.includes(entry))
  return bad === undefined ? Effect.succeed(entries) : Effect.fail(
    new CliFailure({ message: `--tools: unknown tool "${bad}". Known tools: ${knownTools.join(", ")} (or * for all).` })
  )
}
