import { Schema } from "effect"
import { isRecord } from "../domain/isRecord.ts"

/** A documented field a door cannot honour: the values that ask for nothing, and what to do instead. */
export interface Refusal {
  readonly harmless: Schema.Top
  readonly why: string
}

/**
 * A door's documented fields that parley cannot honour (docs/DESIGN.md §14),
 * each taken only at the values that ask for nothing (clients spell defaults
 * out; the contract declares just those). Any other value answers 400 naming
 * the field: a client must not believe it got what it asked.
 */
export const refusedFields = <T extends Readonly<Record<string, Refusal>>>(table: T) => {
  const fields = Object.keys(table) as ReadonlyArray<keyof T & string>
  const isHarmless = new Map(fields.map((field) => [field, Schema.is(table[field]!.harmless)]))
  return {
    /** The fields the decoder knows to refuse, so that they are not also called unknown. */
    fields: new Set<string>(fields) as ReadonlySet<string>,
    /** The fields as the contract declares them: only their values that ask for nothing. */
    schemas: Object.fromEntries(
      fields.map((field) => [
        field,
        Schema.optionalKey(table[field]!.harmless.annotate({
          description: `Not supported (${table[field]!.why}); taken only with a value that asks for nothing.`
        }))
      ])
    ) as { readonly [F in keyof T]: Schema.optionalKey<T[F]["harmless"]> },
    issues: (body: unknown): ReadonlyArray<string> => {
      if (!isRecord(body)) return []
      const issues: Array<string> = []
      for (const field of fields) {
        if (field in body && !isHarmless.get(field)!(body[field])) {
          issues.push(`"${field}" is not supported: ${table[field]!.why}`)
        }
      }
      return issues
    }
  }
}
