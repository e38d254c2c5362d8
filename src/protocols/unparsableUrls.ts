import { Refused } from "./refused.ts"

/**
 * The image URLs of a conversation that do not parse (the model's file part
 * holds a URL object), named once the conversation keeps every other rule:
 * a client is told what it was told when the run, not the mapping, failed
 * on them.
 */
export class UnparsableUrls {
  #first: string | undefined

  /** Whether `url` parses; if not, `place` (the URL's field) is noted. */
  parses(url: string, place: string): boolean {
    if (URL.canParse(url)) return true
    this.#first ??= place
    return false
  }

  /** Refuses the first URL noted, with `advice` on what to send. */
  check(advice: string): void {
    if (this.#first !== undefined) throw new Refused(`"${this.#first}" is not a URL: ${advice}`)
  }
}
