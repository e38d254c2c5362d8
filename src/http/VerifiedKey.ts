import { Context } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"

/** The key the gateway middleware verified before routing; undefined on paths that need none. */
export const VerifiedKey = Context.Reference<ApiKey | undefined>("parley/http/VerifiedKey", {
  defaultValue: () => undefined
})
