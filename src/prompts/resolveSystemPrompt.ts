import { BadRequest } from "../domain/errors.ts"
import { DEFAULT_SYSTEM_PROMPT, type PromptType, promptTypes } from "../domain/PromptType.ts"

export interface PromptChoice {
  readonly systemPrompt?: string | undefined
  readonly promptType?: string | undefined
  readonly context?: { readonly systemPrompts?: Readonly<Record<string, string>> | undefined } | undefined
}

export const isPromptType = (value: string): value is PromptType => (promptTypes as ReadonlyArray<string>).includes(value)

/** An unknown promptType is a 400 that lists the allowed values (DESIGN §3.5). */
export const checkPromptType = (promptType: string | undefined): PromptType | undefined | BadRequest => {
  if (promptType === undefined) return undefined
  if (isPromptType(promptType)) return promptType
  const message = `Invalid promptType "${promptType}". Allowed values: ${promptTypes.join(", ")}`
  return new BadRequest({ message, details: { error: message, allowed: [...promptTypes] } })
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
