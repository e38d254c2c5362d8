import { Context } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"

/** The key the gateway verified before routing; undefined when it did not run. */
export const VerifiedKey = Context.Reference<ApiKey | undefined>("parley/http/VerifiedKey", {
  defaultValue: () => undefined
})
