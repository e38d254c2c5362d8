/** A conversation that breaks its format's rules, thrown from deep in a mapping and caught once at its top. */
export class Refused {
  readonly issue: string
  constructor(issue: string) {
    this.issue = issue
  }
}

/** The mapping's result, or the one issue a `Refused` named. */
export const orIssues = <A>(convert: () => A): A | ReadonlyArray<string> => {
  try {
    return convert()
  } catch (error) {
    if (error instanceof Refused) return [error.issue]
    throw error
  }
}

/** A URL of the body's that must parse (the model's parts hold URL objects); one that does not is named at `place`. */
export const parsedUrl = (url: string, place: string, advice: string): string => {
  if (!URL.canParse(url)) throw new Refused(`"${place}" is not a URL: ${advice}`)
  return url
}
