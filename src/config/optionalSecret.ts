import { Config, Option, Redacted } from "effect"

/** A secret setting; unset or blank: off. */
export const optionalSecret = (name: string) =>
  Config.option(Config.Redacted(name)).pipe(
    Config.map((value) => Option.getOrUndefined(Option.filter(value, (secret) => Redacted.value(secret).trim() !== "")))
  )
