import { hasOnly } from "../domain/isRecord.ts"

const messageFields = new Set(["role", "content"])

/**
 * A plain body's messages (./chat-completions/plainBody.ts,
 * ./messages/plainBody.ts): each of `roles` and a string, as the door's
 * schema decodes them; undefined for any other list, which the schema reads.
 */
export const plainTextMessages = <Role extends string>(
  messages: unknown,
  roles: ReadonlySet<Role>
): Array<{ readonly role: Role; readonly content: string }> | undefined => {
  if (!Array.isArray(messages)) return undefined
  const decoded: Array<{ readonly role: Role; readonly content: string }> = []
  for (const message of messages) {
    if (!hasOnly(message, messageFields)) return undefined
    const { content, role } = message
    if (typeof content !== "string" || typeof role !== "string" || !roles.has(role as Role)) return undefined
    decoded.push({ role: role as Role, content })
  }
  return decoded
}
