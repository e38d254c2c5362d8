import { SchemaIssue } from "effect"

/**
 * Renders schema issues as sentences a client can act on.
 *
 * Conventions of the schemas in this folder: custom messages are predicates
 * (`is required`, `must be an array`) and read after the quoted field path
 * (`"messages" must be an array`); a message that is already a full sentence
 * starts with `Invalid` (`Invalid model format …`) and stands alone. Effect's
 * default messages (`Expected string`) follow the path after a colon.
 */
const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) =>
    issue._tag === "MissingKey" && issue.annotations?.messageMissingKey === undefined
      ? "is required"
      : SchemaIssue.defaultLeafHook(issue)
})

/** `messages[0].parts[1].text` */
const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path
    .map((key, index) => typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)
    .join("")

const isSentence = (message: string) => message.startsWith("Invalid ")
const isPredicate = (message: string) => /^(is|must|needs) /.test(message)

const describe = (issue: { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }): string => {
  if (issue.path.length === 0 || isSentence(issue.message)) return issue.message
  const where = `"${formatPath(issue.path)}"`
  return isPredicate(issue.message) ? `${where} ${issue.message}` : `${where}: ${issue.message}`
}

/** The issues of a failed decode, each a sentence, in field order. */
export const describeIssues = (issue: SchemaIssue.Issue): ReadonlyArray<string> =>
  formatter(issue).issues.map((entry) =>
    describe({ path: (entry.path ?? []).map((key) => typeof key === "object" ? key.key : key), message: entry.message })
  )

/** The message for these issues: the first one, as a full sentence. */
export const headline = (described: ReadonlyArray<string>): string => {
  const first = described[0] ?? "the body does not match the ChatRequest schema"
  return isSentence(first) ? first : `Invalid request: ${first}`
}
