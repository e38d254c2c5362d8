/**
 * The OpenAPI generator closes every object (`additionalProperties: false`),
 * but the request decoder ignores fields it does not know inside a request
 * (a message's or a part's extra fields): only the top level and the
 * fixed-shape objects (`pruneOptions`) refuse unknown fields (docs/DESIGN.md
 * §3.16). This opens the nested objects of a component schema, all but the
 * properties named `closed`, so that the contract accepts what the server accepts.
 */
export const openNestedObjects = (component: string, closed: ReadonlyArray<string>) => (spec: Record<string, any>) => {
  const open = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(open)
    if (typeof node !== "object" || node === null) return
    const record = node as Record<string, unknown>
    if (record.additionalProperties === false) delete record.additionalProperties
    Object.values(record).forEach(open)
  }
  const schema = spec.components?.schemas?.[component] as Record<string, any> | undefined
  if (schema === undefined) return spec
  const properties: Record<string, unknown> = schema.properties ?? {}
  for (const [name, property] of Object.entries(properties)) if (!closed.includes(name)) open(property)
  return spec
}
