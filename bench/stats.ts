/** Percentiles by linear interpolation between closest ranks; `values` need not be sorted. */
export const percentiles = (values: ReadonlyArray<number>, ps: ReadonlyArray<number>): Array<number> => {
  if (values.length === 0) return ps.map(() => Number.NaN)
  const sorted = Float64Array.from(values).sort()
  return ps.map((p) => {
    const rank = (p / 100) * (sorted.length - 1)
    const low = Math.floor(rank)
    const high = Math.min(low + 1, sorted.length - 1)
    return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low)
  })
}

export const median = (values: ReadonlyArray<number>): number => percentiles(values, [50])[0]!

/** Rounds for display and the JSON line: three significant decimals are plenty for ms. */
export const round = (value: number, digits = 3): number => {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}
