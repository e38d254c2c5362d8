import { Schema } from "effect"

// The budgets pruning cannot meet (docs/DESIGN.md §3.11): the options ask more of the model's window than it has.

export class TargetExceedsWindow extends Schema.TaggedError<TargetExceedsWindow>()("TargetExceedsWindow", {
  targetTokens: Schema.Number,
  contextWindow: Schema.Number
}) {
  override get message() {
    return `pruneOptions.targetTokens (${this.targetTokens}) exceeds the model's context window of ${this.contextWindow} tokens`
  }
}

export class NoRoomForInput extends Schema.TaggedError<NoRoomForInput>()("NoRoomForInput", {
  /** The output reserve actually taken: pruneOptions.maxOutputTokens, capped by what the model can generate. */
  maxOutputTokens: Schema.Number,
  contextWindow: Schema.Number
}) {
  override get message() {
    return `pruneOptions.maxOutputTokens (${this.maxOutputTokens}) leaves no room for input in the model's context window of ${this.contextWindow} tokens`
  }
}

export type InvalidPruneOptions = TargetExceedsWindow | NoRoomForInput
