import { editDistance } from "../domain/editDistance.ts"

/** The candidate nearest to `text` (fewest edits, case ignored), to name in an error about a typo. */
export const closest = (text: string, candidates: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = editDistance(text, candidate)
    if (d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return best
}
