import { DEFAULT_SYSTEM_PROMPT, type PromptType, promptTypes } from "../domain/PromptType.ts"
import { InvalidPromptType } from "./promptErrors.ts"

export interface PromptChoice {
  readonly systemPrompt?: string | undefined
  readonly promptType?: string | undefined
  readonly context?: { readonly systemPrompts?: Readonly<Record<string, string>> | undefined } | undefined
}

export const isPromptType = (value: string): value is PromptType =>
  (promptTypes as ReadonlyArray<string>).includes(value)

/** An unknown promptType is refused with the allowed values (docs/DESIGN.md §3.5). */
export const checkPromptType = (promptType: string | undefined): PromptType | undefined | InvalidPromptType => {
  if (promptType === undefined) return undefined
  if (isPromptType(promptType)) return promptType
  return new InvalidPromptType({ promptType, allowed: promptTypes })
}

/** Rule 3: `systemPrompt`, then `context.systemPrompts[promptType]`, then the default. */
export const resolveSystemPrompt = (choice: PromptChoice): string => {
  if (choice.systemPrompt !== undefined) return choice.systemPrompt
  if (choice.promptType !== undefined) {
    const fromContext = choice.context?.systemPrompts?.[choice.promptType]
    if (typeof fromContext === "string") return fromContext
  }
  return DEFAULT_SYSTEM_PROMPT
}
