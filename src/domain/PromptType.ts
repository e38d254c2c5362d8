import { Schema } from "effect"

export const promptTypes = [
  "bossJobsiteSystemPrompt",
  "bossJobsiteLocalSystemPrompt",
  "generalComputerSystemPrompt"
] as const

export const PromptType = Schema.Literals(promptTypes)
export type PromptType = typeof PromptType.Type

export const promptTypeDescriptions: Record<PromptType, string> = {
  bossJobsiteSystemPrompt:
    "Recruiting assistant on a job site with every tool: replies, messaging, browser and sandboxed computer use.",
  bossJobsiteLocalSystemPrompt: "Recruiting assistant without a sandbox: replies, messaging and the browser.",
  generalComputerSystemPrompt: "General computer use: sandboxed shell, desktop and browser."
}

export const DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant."
