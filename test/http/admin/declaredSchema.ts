import { Schema } from "effect"
import { Api } from "../../../src/api/Api.ts"

/** `/keys/:id/limits` as a pattern that matches `/keys/key_1/limits` and nothing longer. */
const pattern = (path: string) => new RegExp(`^${path.replaceAll(/:[^/]+/g, "[^/]+")}$`)

const endpoints = Object.values(Api.groups.admin.endpoints).map((endpoint) => ({
  endpoint,
  matches: pattern(endpoint.path)
}))

/** The one success schema an endpoint declares, what /openapi.json documents for it. */
export const successOf = (
  endpoint: { readonly identifier: string; readonly success: ReadonlySet<Schema.Top> }
): Schema.ConstraintDecoder<unknown> => {
  const [success, ...others] = endpoint.success
  if (success === undefined || others.length > 0) throw new Error(`${endpoint.identifier} declares no single success`)
  // Endpoints hold their schemas as Schema.Top; the admin API's need no services to decode.
  return success as unknown as Schema.ConstraintDecoder<unknown>
}

/** The success schema of the admin endpoint of `method` whose path pattern matches `path` (its query aside). */
export const declaredSuccess = (method: string, path: string): Schema.ConstraintDecoder<unknown> => {
  const route = path.split("?", 1)[0]!
  const found = endpoints.find(({ endpoint, matches }) => endpoint.method === method && matches.test(route))
  if (found === undefined) throw new Error(`No admin endpoint declares ${method} ${route}`)
  return successOf(found.endpoint)
}

/** Decodes an answer with a declared schema, refusing any field it does not declare (the document would hide it). */
export const decodeDeclared = (schema: Schema.ConstraintDecoder<unknown>, body: unknown): unknown =>
  Schema.decodeUnknownSync(schema)(body, { onExcessProperty: "error" })

/** Fails, naming the route, unless a successful answer is what the contract declares for it. */
export const expectDeclared = (method: string, path: string, body: unknown): void => {
  const schema = declaredSuccess(method, path)
  try {
    decodeDeclared(schema, body)
  } catch (error) {
    throw new Error(`${method} ${path} answered outside its declared schema: ${String(error)}`, { cause: error })
  }
}
