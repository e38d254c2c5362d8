import type { Schema } from "effect"
import type * as Views from "../domain/views.ts"
import type * as Admin from "./adminSchemas.ts"
import type { McpServerView } from "./mcpServerSchemas.ts"
import type * as Providers from "./providerSchemas.ts"

/**
 * The admin API's view schemas (what /openapi.json declares) against the domain's view types (what the handlers
 * build and the console reads): each line fails `tsc` once a schema and its view drift apart.
 */
export type ViewContracts = [
  Holds<Describes<typeof Admin.AccountView, Views.AccountView>>,
  Holds<Describes<typeof Admin.KeyView, Views.KeyView>>,
  Holds<Describes<typeof Admin.CatalogView, Views.AdminCatalog>>,
  Holds<Describes<typeof Admin.LimitsStatusView, Views.LimitsStatus>>,
  Holds<Describes<typeof Admin.UsageRowView, Views.UsageRow>>,
  Holds<Describes<typeof Admin.RequestView, Views.RequestView>>,
  Holds<Describes<typeof Admin.AdminSandboxView, Views.SandboxView>>,
  Holds<Describes<typeof Admin.KeptRunView, Views.KeptRunView>>,
  Holds<Describes<typeof McpServerView, Views.McpServerView>>,
  Holds<Describes<typeof Providers.ProviderView, Views.ProviderView>>,
  Holds<Describes<typeof Providers.RouteView, Views.RouteView>>
]

type Holds<T extends true> = T

/**
 * The schema's wire form is exactly the view, which the handlers send as it is: the same fields, optional alike,
 * of the same types (readonly aside).
 */
type Describes<S extends Schema.Top, View> = Same<Plain<S["Encoded"]>, Plain<View>>

// Identical types by the compiler's own check; plain `extends` both ways would let a missing optional field pass.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false

/** JSON-like data with every readonly modifier dropped and intersections flattened. */
type Plain<T> = T extends ReadonlyArray<infer E> ? Array<Plain<E>>
  : T extends object ? { -readonly [K in keyof T]: Plain<T[K]> }
  : T
