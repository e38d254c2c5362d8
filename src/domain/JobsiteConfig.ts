import { Schema } from "effect"

/**
 * The structures `jobsite_reply_generator` needs in `context.configData` and
 * `context.replyPrompts`. They are published by GET /config-schema and checked
 * per tool (`structureErrors`); a request with a malformed one still decodes.
 */

const Text = Schema.String.check(Schema.isMinLength(1))
const TextList = Schema.Array(Text)

export const ContactPolicy = Schema.Struct({
  policy: Text.annotate({
    description:
      "How and when contact details are shared, e.g. \"Share the store phone only after an interview is booked.\""
  }),
  channels: Schema.optionalKey(
    TextList.annotate({ description: "Channels the recruiter may offer, e.g. [\"phone\", \"chat app\"]." })
  )
}).annotate({ description: "Contact policy." })

export const InterviewPolicy = Schema.Struct({
  policy: Text.annotate({
    description: "How interviews are booked, e.g. \"Walk-in interviews at the store, no appointment needed.\""
  }),
  slots: Schema.optionalKey(
    TextList.annotate({ description: "When interviews take place, e.g. [\"Mon–Fri 14:00–17:00\"]." })
  ),
  bring: Schema.optionalKey(
    TextList.annotate({ description: "What the candidate brings, e.g. [\"ID card\", \"health certificate\"]." })
  )
}).annotate({ description: "Interview policy." })

export const Position = Schema.Struct({
  title: Text.annotate({ description: "Job title, e.g. \"Barista\"." }),
  pay: Text.annotate({ description: "Pay exactly as it may be quoted, e.g. \"26 CNY per hour, paid monthly\"." }),
  schedule: Text.annotate({
    description: "Working hours or shifts, e.g. \"Shifts of 6–8 h between 07:00 and 22:00\"."
  }),
  requirements: TextList.annotate({ description: "What the candidate must bring or be; may be empty." }),
  benefits: TextList.annotate({ description: "Benefits; may be empty." })
}).annotate({ description: "An open position at a store." })

export const Store = Schema.Struct({
  name: Text.annotate({ description: "Store name, e.g. \"Riverside\"." }),
  city: Text,
  district: Text,
  address: Text,
  positions: Schema.Array(Position)
}).annotate({ description: "A store and its open positions." })

export const Brand = Schema.Struct({
  name: Text.annotate({ description: "Brand name as candidates know it." }),
  aliases: Schema.optionalKey(TextList.annotate({ description: "Other names candidates use for the brand." })),
  description: Schema.optionalKey(Text.annotate({ description: "One or two sentences about the brand." })),
  stores: Schema.Array(Store).check(Schema.isMinLength(1)),
  contactPolicy: Schema.optionalKey(ContactPolicy),
  interviewPolicy: Schema.optionalKey(InterviewPolicy)
}).annotate({ description: "A brand; its policies override the global ones." })

export const ConfigData = Schema.Struct({
  brands: Schema.Array(Brand).check(Schema.isMinLength(1)),
  contactPolicy: Schema.optionalKey(ContactPolicy),
  interviewPolicy: Schema.optionalKey(InterviewPolicy)
}).annotate({
  description:
    "Business configuration for jobsite_reply_generator: brands → stores (city, district, address) → positions (title, pay, schedule, requirements, benefits), plus contact and interview policies. Replies state only these facts."
})
export type ConfigData = typeof ConfigData.Type
export type Brand = typeof Brand.Type
export type Store = typeof Store.Type

/** What a candidate's message is about; one reply template each. */
export const replyCategories = [
  "firstContact",
  "pay",
  "location",
  "schedule",
  "requirements",
  "benefits",
  "interviewBooking",
  "offTopic"
] as const
export const ReplyCategory = Schema.Literals(replyCategories)
export type ReplyCategory = typeof ReplyCategory.Type

export const categoryDescriptions: Record<ReplyCategory, string> = {
  firstContact: "a greeting or first expression of interest in a job",
  pay: "wages, salary, pay days",
  location: "where the stores are, addresses, commuting",
  schedule: "working hours, shifts, days off",
  requirements: "what the job asks of the candidate (age, experience, documents, certificates)",
  benefits: "meals, insurance, accommodation or other benefits",
  interviewBooking: "booking, attending or preparing an interview",
  offTopic: "anything unrelated to the jobs"
}

/** The placeholders a template may use; the tool fills them from configData. */
export const templatePlaceholders = ["brand", "positions", "stores", "facts"] as const

const placeholderPattern = /\{\{\s*([^}]*?)\s*\}\}/g

const knownPlaceholders = (template: string) => {
  const unknown = [...template.matchAll(placeholderPattern)]
    .map((match) => match[1] ?? "")
    .filter((name) => !(templatePlaceholders as ReadonlyArray<string>).includes(name))
  return unknown.length === 0
    ? undefined
    : `Unknown placeholder ${unknown.map((name) => `{{${name}}}`).join(", ")}; known: ${
      templatePlaceholders.map((name) => `{{${name}}}`).join(", ")
    }`
}

const templateFor = (category: ReplyCategory) =>
  Schema.String.annotate({ description: `Instruction for replies about ${categoryDescriptions[category]}.` }).check(
    Schema.isMinLength(1),
    Schema.makeFilter(knownPlaceholders)
  )
type Template = ReturnType<typeof templateFor>

export const ReplyTemplates = Schema.Struct(
  Object.fromEntries(
    replyCategories.map((category) => [category, Schema.optionalKey(templateFor(category))])
  ) as { [C in ReplyCategory]: Schema.optionalKey<Template> }
).annotate({
  description: `One instruction template per reply category; placeholders ${
    templatePlaceholders.map((name) => `{{${name}}}`).join(", ")
  } are filled from configData. A category without a template uses the general instruction alone.`
})

export const ReplyPrompts = Schema.Struct({
  generalInstruction: Text.annotate({
    description:
      "Tone and rules for every reply, e.g. \"You are Mia, a friendly recruiter. Keep replies under 60 words.\""
  }),
  templates: ReplyTemplates,
  checkBackReply: Schema.optionalKey(Text.annotate({
    description:
      "Sent instead of a generated reply that states a figure the facts lack; default: an English \"I will check\" line."
  }))
}).annotate({
  description:
    "Reply prompt configuration for jobsite_reply_generator: a general instruction and a template per reply category."
})
export type ReplyPrompts = typeof ReplyPrompts.Type

/** The fields of `context.modelConfig` jobsite_reply_generator reads; other fields are ignored. */
export const JobsiteModelConfig = Schema.Struct({
  classifyModel: Schema.optionalKey(
    Text.annotate({ description: "Model id (`provider/model`) that classifies messages." })
  ),
  replyModel: Schema.optionalKey(Text.annotate({ description: "Model id (`provider/model`) that writes replies." }))
})
export type JobsiteModelConfig = typeof JobsiteModelConfig.Type
