/**
 * The OpenAPI generator closes every object (`additionalProperties: false`),
 * but the request decoder ignores fields it does not know inside a request
 * (a message's or a part's extra fields): only the top level refuses unknown
 * fields (docs/DESIGN.md §3.16). This opens the nested objects of the named
 * component schemas so that the contract accepts what the server accepts.
 */
export const openNestedObjects = (...components: ReadonlyArray<string>) => (spec: Record<string, any>) => {
  const open = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(open)
    if (typeof node !== "object" || node === null) return
    const record = node as Record<string, unknown>
    if (record.additionalProperties === false) delete record.additionalProperties
    Object.values(record).forEach(open)
  }
  for (const name of components) {
    const schema = spec.components?.schemas?.[name] as Record<string, unknown> | undefined
    if (schema === undefined) continue
    const closed = schema.additionalProperties
    Object.values(schema).forEach(open)
    if (closed !== undefined) schema.additionalProperties = closed
  }
  return spec
}
