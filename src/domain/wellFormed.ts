import { Schema } from "effect"

/**
 * A name a request gives (a model id, a tool's, an MCP server's label) holds
 * no lone surrogate (docs/DESIGN.md §3.24): a UTF-16 code unit of a pair
 * without its other half, which no UTF-8 can say. Such a name could be
 * neither sent on as it came nor percent-encoded where a header names it, so
 * decoding refuses it naming the field.
 */
export const wellFormed = Schema.makeFilter(
  (text: string) => text.isWellFormed() || "must be well-formed Unicode: it holds a lone surrogate",
  { expected: "well-formed Unicode" }
)

/** A string that is a name (see `wellFormed`). */
export const Name = Schema.String.annotate({ message: "must be a string" }).check(wellFormed)
