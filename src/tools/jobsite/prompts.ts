import type { ModelMessage } from "ai"
import {
  categoryDescriptions,
  replyCategories,
  type ReplyCategory,
  type ReplyPrompts
} from "../../domain/JobsiteConfig.ts"
import { type FactSheet, titlesOf } from "./facts.ts"

export interface Turn {
  readonly role: "candidate" | "recruiter"
  readonly text: string
}

/** The conversation a reply answers: the latest message and what came before. */
export interface Conversation {
  readonly message: string
  readonly history: ReadonlyArray<Turn>
}

/** Older turns add cost, not accuracy. */
const RECENT_TURNS = 10

const recent = (history: ReadonlyArray<Turn>) => history.slice(-RECENT_TURNS)

export const classifyInstructions = [
  "You classify a job candidate's latest message for a recruiter. The categories are:",
  ...replyCategories.map((category) => `- ${category}: ${categoryDescriptions[category]}`),
  "Pick the one category that fits the latest message best, reading it in the light of the recent conversation.",
  `Answer with JSON only, of the form {"category": "pay"}.`
].join("\n")

export const classifyPrompt = (conversation: Conversation): string => {
  const turns = recent(conversation.history).map((turn) =>
    `${turn.role === "candidate" ? "Candidate" : "Recruiter"}: ${turn.text}`
  )
  return [
    ...(turns.length === 0 ? [] : ["Recent conversation:", ...turns, ""]),
    "Latest candidate message:",
    conversation.message
  ].join("\n")
}

/** A template with its placeholders filled from the fact sheet. */
export const fillTemplate = (template: string, sheet: FactSheet): string => {
  const values: Record<string, string> = {
    brand: sheet.brand.name,
    positions: titlesOf(sheet.openings).join(", "),
    stores: sheet.stores.map((store) => `${store.name} (${store.district}, ${store.city})`).join("; "),
    facts: sheet.facts.join("\n")
  }
  return template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, name: string) => values[name] ?? whole)
}

export const replyInstructions = (prompts: ReplyPrompts, category: ReplyCategory, sheet: FactSheet): string => {
  const template = prompts.templates[category]
  return [
    prompts.generalInstruction,
    "",
    `You are replying to a job candidate about ${sheet.brand.name}. The message is about ${
      categoryDescriptions[category]
    }.`,
    ...(template === undefined ? [] : ["Instruction for this reply:", fillTemplate(template, sheet)]),
    "",
    "Facts you may state (the only facts you know):",
    ...sheet.facts.map((fact) => `- ${fact}`),
    ...(sheet.unknown.length === 0 ? [] : [
      "",
      "The configuration does not say anything about:",
      ...sheet.unknown.map((item) => `- ${item}`)
    ]),
    "",
    "Rules:",
    "- State only the facts above, as given. Never guess or invent pay, addresses, hours, requirements, benefits, interview times or contact details.",
    "- If the candidate asks about something the facts do not cover, say you will check and get back to them.",
    "- Write one short chat message in the candidate's language. Output only that message."
  ].join("\n")
}

export const replyMessages = (conversation: Conversation): Array<ModelMessage> => [
  ...recent(conversation.history).map((turn): ModelMessage =>
    turn.role === "candidate" ? { role: "user", content: turn.text } : { role: "assistant", content: turn.text }
  ),
  { role: "user", content: conversation.message }
]
