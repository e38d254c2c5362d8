import { Arbitrary, Schema } from "effect"

/**
 * Bodies of a door's plain form (`plain`, which its plain decoder takes),
 * half of them with one field set to any JSON value: a field of the body,
 * or `message.<field>` of its first message. The plain decoders' property
 * tests hold them to the schema's answers on both.
 */
export const plainishBodies = <A extends object>(
  plain: Schema.Codec<A>,
  mutations: ReadonlyArray<string>
) =>
  Arbitrary.all({
    body: Arbitrary.schema(plain),
    mutate: Arbitrary.schema(Schema.Boolean),
    field: Arbitrary.schema(Schema.Literals(mutations as [string, ...Array<string>])),
    value: Arbitrary.schema(Schema.Json)
  }).pipe(Arbitrary.map(({ body, field, mutate, value }) => {
    if (!mutate) return JSON.parse(JSON.stringify(body))
    const mutated: Record<string, unknown> = { ...(body as Record<string, unknown>) }
    if (field.startsWith("message.")) {
      const messages = (body as { readonly messages?: ReadonlyArray<object> }).messages ?? []
      mutated.messages = messages.map((message, index) =>
        index === 0 ? { ...message, [field.slice("message.".length)]: value } : message
      )
    } else mutated[field] = value
    return JSON.parse(JSON.stringify(mutated))
  }))
