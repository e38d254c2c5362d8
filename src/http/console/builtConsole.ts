import type { ConsoleBuild } from "./ConsoleBuild.ts"

/**
 * The console's page and assets. Run from the sources, parley builds them on
 * first use with the build script's own function; the bundle that `npm start`
 * runs replaces this module by what scripts/build.ts built (its plugin
 * `embedConsole`), so the service serves exactly that build and needs no
 * build tool, and no file beside it, at run time.
 */
export const loadConsole = async (): Promise<ConsoleBuild> => {
  const { buildConsole } = await import("../../../scripts/consoleBuild.ts")
  return buildConsole()
}
