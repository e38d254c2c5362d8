/**
 * The reliability suite's two sizes: `RELIABILITY_SIZE=full` (what
 * `npm run test:reliability` sets) runs each test at the size the issue names;
 * anything else is the CI size, small enough for `.ci/run` (≤ 5 minutes in all).
 */
export const FULL = process.env.RELIABILITY_SIZE === "full"

export const SIZE: "full" | "ci" = FULL ? "full" : "ci"

/** `ci` at CI size, `full` at full size. */
export const sized = <A>(ci: A, full: A): A => FULL ? full : ci
