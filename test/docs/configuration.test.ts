import { ConfigProvider, Effect, Schema, SchemaAST } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { ConfigFileContent } from "../../src/config/ProviderConfig.ts"
import { RouteProviderEntry } from "../../src/config/RouteConfig.ts"

/**
 * docs/configuration.md against the code: every environment variable src/ reads and every key the config file's
 * schema accepts is in the guide's tables, and the tables hold nothing else. A variable or key added to the code
 * and not to the guide (or dropped from the code and left in the guide) fails here.
 */
const repo = join(import.meta.dirname, "..", "..")
const guidePath = join(repo, "docs", "configuration.md")

// ---------------------------------------------------------------------------------------------------------------
// Environment variables read by the code, found in the source

/** An environment variable's name as the code spells it. */
// Upper case, but for the few that others set for parley to read (npm_lifecycle_event).
const ENV_NAME = /^([A-Z][A-Z0-9_]*|npm_[a-z_]+)$/

interface Scan {
  /** Variable name → the files that read it. */
  readonly names: Map<string, Set<string>>
  /** Reads whose name the source does not spell out (`Config.Redacted(variable)`), as `file: call`. */
  readonly dynamic: Array<string>
}

/** Index of the last character of the string literal that starts at `start` (its closing quote). */
const stringEnd = (text: string, start: number): number => {
  const quote = text[start]
  let i = start + 1
  for (; i < text.length && text[i] !== quote; i++) if (text[i] === "\\") i++
  return i
}

/**
 * The top-level arguments of the call whose `(` is at `open`, as trimmed source texts; strings, template
 * literals, comments and nested brackets are skipped whole.
 */
const callArguments = (text: string, open: number): Array<string> => {
  const args: Array<string> = []
  let depth = 0
  let start = open + 1
  for (let i = open; i < text.length; i++) {
    const c = text[i]!
    if (c === "\"" || c === "'" || c === "`") i = stringEnd(text, i)
    else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      const end = text.indexOf(text[i + 1] === "/" ? "\n" : "*/", i + 2)
      if (end === -1) break
      i = text[i + 1] === "/" ? end : end + 1
    } else if (c === "(" || c === "[" || c === "{") depth++
    else if (c === ")" || c === "]" || c === "}") {
      depth--
      if (depth === 0) {
        const last = text.slice(start, i).trim()
        if (last !== "") args.push(last)
        return args
      }
    } else if (c === "," && depth === 1) {
      args.push(text.slice(start, i).trim())
      start = i + 1
    }
  }
  return args
}

const stringLiteral = (arg: string): string | undefined => /^(["'`])([^"'`$\\]*)\1$/.exec(arg)?.[2]
const isIdentifier = (arg: string) => /^[a-z_$][\w$]*$/i.test(arg)

/** The parameters of the function that most closely encloses `at`, from its header (arrow or `function`). */
const enclosingParameters = (text: string, at: number): Array<string> => {
  const before = text.slice(0, at)
  const headers = [
    ...before.matchAll(
      /(?:\bfunction\s*\*?\s*[\w$]*\s*|=\s*(?:async\s*)?)(?:<[^>()]*>)?\(([^()]*)\)\s*(?::[^=]*?)?(?:=>|\{)/g
    )
  ]
  const last = headers.at(-1)
  if (last === undefined) return []
  return last[1]!.split(",").map((param) => param.trim().replace(/[?]?\s*:.*$/s, "").trim()).filter(Boolean)
}

/** The name a function is bound to when its header is the last one before `at` (`const bytes = (name) => …`). */
const enclosingFunctionName = (text: string, at: number): string | undefined => {
  const before = text.slice(0, at)
  const names = [
    ...before.matchAll(
      /(?:\bfunction\s*\*?\s*([\w$]+)\s*|\b(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s*)?)(?:<[^>()]*>)?\(([^()]*)\)\s*(?::[^=]*?)?(?:=>|\{)/g
    )
  ]
  const last = names.at(-1)
  return last === undefined ? undefined : last[1] ?? last[2]
}

/**
 * Every environment variable the sources read: `process.env.X`, `process.env["X"]`, `{ X } = process.env`,
 * `import.meta.env.X`, any `Config.*(…, "X", …)` (Effect's configs read the environment), and the same through
 * helpers that hand a parameter on to one (`const bytes = (name: string) => Config.ByteSize(name)`, then
 * `bytes("X")`), found to a fixed point across files.
 */
const scanSources = (files: ReadonlyArray<{ readonly path: string; readonly text: string }>): Scan => {
  const names = new Map<string, Set<string>>()
  const add = (name: string, path: string) => names.set(name, (names.get(name) ?? new Set()).add(path))
  const dynamic: Array<string> = []
  // Helper function name → the index of the parameter that ends up as a variable's name.
  const helpers = new Map<string, number>()

  for (const { path, text } of files) {
    for (const m of text.matchAll(/\b(?:process|import\.meta)\.env\.([A-Za-z_][\w]*)/g)) add(m[1]!, path)
    for (const m of text.matchAll(/\b(?:process|import\.meta)\.env\[\s*(["'`])([^"'`]+)\1\s*\]/g)) add(m[2]!, path)
    for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*(?:process|import\.meta)\.env\b/g)) {
      for (const part of m[1]!.split(",")) {
        const name = part.split(":")[0]!.trim()
        if (ENV_NAME.test(name)) add(name, path)
      }
    }
  }

  // Calls to Config's constructors and to helpers, repeated until no new helper turns up.
  let grew = true
  while (grew) {
    grew = false
    dynamic.length = 0
    for (const { path, text } of files) {
      for (const m of text.matchAll(/\b(?:process|import\.meta)\.env\[\s*([^\]"'`]+?)\s*\]/g)) {
        dynamic.push(`${path}: process.env[${m[1]}]`)
      }
      const callers = [
        ...[...text.matchAll(/(?<![\w$.])Config\.([A-Za-z]+)\s*\(/g)].map((m) => ({ m, helper: undefined })),
        ...[...helpers.keys()].flatMap((helper) =>
          [...text.matchAll(new RegExp(`(?<![\\w$.])${helper}\\s*\\(`, "g"))].map((m) => ({ m, helper }))
        )
      ]
      for (const { helper, m } of callers) {
        const open = m.index + m[0].length - 1
        // A definition's own header (`const bytes = (name: string) =>`) is not a call.
        if (
          helper !== undefined &&
          new RegExp(`(?:const|let|function)\\s+${helper}\\s*=?\\s*$`).test(text.slice(0, m.index))
        ) {
          continue
        }
        const args = callArguments(text, open)
        const candidates = helper === undefined ? args : args.slice(helpers.get(helper)!, helpers.get(helper)! + 1)
        // Where a constructor takes the name: last (`Config.String(name)`, `Config.schema(schema, name)`).
        const nameSlot = helper !== undefined || m[1] === "schema" || /^[A-Z]/.test(m[1] ?? "")
        for (const [position, arg] of candidates.entries()) {
          const literal = stringLiteral(arg)
          if (literal !== undefined) {
            if (ENV_NAME.test(literal)) add(literal, path)
            continue
          }
          const isNameSlot = nameSlot && (helper !== undefined || position === candidates.length - 1)
          if (!isIdentifier(arg)) {
            // A template literal or a concatenation naming the variable: nobody can tell which one it reads.
            if (isNameSlot && /^`|^["'].*\+|\+\s*["'`]/.test(arg)) dynamic.push(`${path}: ${m[0]}${arg})`)
            continue
          }
          const index = enclosingParameters(text, m.index).indexOf(arg)
          const owner = enclosingFunctionName(text, m.index)
          if (isNameSlot && index !== -1 && owner !== undefined) {
            if (!helpers.has(owner)) {
              helpers.set(owner, index)
              grew = true
            }
          } else if (isNameSlot && /^[a-z]/.test(arg)) {
            // An identifier that is no parameter of the enclosing function: a name computed at run time.
            dynamic.push(`${path}: ${m[0]}${arg})`)
          }
        }
      }
    }
  }
  return { names, dynamic }
}

const sourceFiles = (dir: string): Array<{ path: string; text: string }> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:ts|tsx|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => {
      const full = join(entry.parentPath, entry.name)
      return { path: relative(repo, full), text: readFileSync(full, "utf8") }
    })

// ---------------------------------------------------------------------------------------------------------------
// Variables read at run time: AppConfig's real layer against a provider that records every name it is asked for

const recordedReads = async (): Promise<Set<string>> => {
  const asked = new Set<string>()
  const recorder = ConfigProvider.make((path) => {
    const name = path.filter((segment) => typeof segment === "string").join("_")
    asked.add(name)
    // A config file with no apiKeyEnv, so the reads do not depend on the developer's ./parley.config.json.
    return Effect.succeed(
      name === "PARLEY_CONFIG" ? ConfigProvider.makeValue(join(repo, "parley.config.example.json")) : undefined
    )
  })
  await Effect.runPromise(
    Effect.gen(function*() {
      return yield* AppConfig
    }).pipe(Effect.provide(AppConfig.layer), Effect.provideService(ConfigProvider.ConfigProvider, recorder))
  )
  return asked
}

// ---------------------------------------------------------------------------------------------------------------
// Config-file keys, from the schema

/** Every key path the schema accepts: `providers[].models[].pricing.inputPerMTok`, `mcpServers[].url`… */
const keyPaths = (ast: SchemaAST.AST, prefix = ""): Array<string> => {
  switch (ast._tag) {
    case "Objects":
      return ast.propertySignatures.flatMap((property) => {
        const path = `${prefix === "" ? "" : `${prefix}.`}${String(property.name)}`
        return [path, ...keyPaths(property.type, path)]
      })
    case "Arrays":
      return [...new Set([...ast.elements, ...ast.rest].flatMap((element) => keyPaths(element, `${prefix}[]`)))]
    case "Union":
      return [...new Set(ast.types.flatMap((member) => keyPaths(member, prefix)))]
    case "Suspend":
      return keyPaths(ast.thunk(), prefix)
    default:
      // Scalars, literals, Redacted values; a Record's keys (headers, env) are the operator's own names.
      return []
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What the guide says

/** The text from a `## heading` line up to the next `## `. */
const section = (markdown: string, heading: string): string => {
  const start = markdown.indexOf(`\n## ${heading}\n`)
  if (start === -1) throw new Error(`docs/configuration.md has no "## ${heading}" section`)
  const end = markdown.indexOf("\n## ", start + 1)
  return markdown.slice(start, end === -1 ? undefined : end)
}

/** The backticked names in the first cell of each table row (header and separator rows skipped). */
const firstCells = (markdown: string): Array<string> =>
  markdown.split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!))

/**
 * Variables the guide names that no code of parley reads, and why it names them: read by the OpenTelemetry SDK
 * itself, or an example of a name the operator picks for `apiKeyEnv`.
 */
const readByOthers = new Set([
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_RESOURCE_ATTRIBUTES",
  "OTEL_BSP_*",
  "OTEL_*",
  "PARLEY_SANDBOX_*",
  // Examples of apiKeyEnv.
  "MY_LLM_KEY",
  "OPENROUTER_API_KEY",
  // Google's auth library (Vertex's credentials) and @ai-sdk/amazon-bedrock (an endpoint without baseURL).
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"
])

/** The one read whose name is data: a provider's `apiKeyEnv` (src/config/ConfigFile.ts, resolveApiKey). */
const knownDynamic = ["src/config/ConfigFile.ts: Config.Redacted(variable)"]

const guide = readFileSync(guidePath, "utf8")
const scan = scanSources(sourceFiles(join(repo, "src")))
const codeNames = [...scan.names.keys()].sort()
const documentedNames = firstCells(section(guide, "Environment variables")).filter((name) => ENV_NAME.test(name))

describe("the scanner", () => {
  it("finds each form a variable is read in", () => {
    const { dynamic, names } = scanSources([
      {
        path: "a.ts",
        text: [
          `const a = process.env.A_ONE, b = process.env["A_TWO"], c = process.env['A_THREE']`,
          `const { A_FOUR, A_FIVE: five } = process.env`,
          `const d = Config.String("B_ONE").pipe(Config.withDefault("lower"))`,
          `const e = Config.schema(Schema.Int.check(Schema.isGreaterThan(0)),`,
          `  "B_TWO")`,
          `const positive = (name: string) => Config.schema(Schema.Int, name)`,
          `const bytes = (name: string) => positive(name).pipe(Config.orElse(() => Config.ByteSize(name)))`,
          `const f = bytes("C_ONE")`,
          `function secret(label: string, name: string) { return Config.Redacted(name) }`,
          `const g = secret("not-a-name", "C_TWO")`,
          `const h = (entry: { k: string }) => { const variable = entry.k; return Config.Redacted(variable) }`,
          `const i = process.env[key]`
        ].join("\n")
      },
      { path: "b.ts", text: `const j = positive("C_THREE"); const k = Config.option(Config.URL("B_THREE"))` }
    ])
    expect([...names.keys()].sort()).toEqual([
      "A_FIVE",
      "A_FOUR",
      "A_ONE",
      "A_THREE",
      "A_TWO",
      "B_ONE",
      "B_THREE",
      "B_TWO",
      "C_ONE",
      "C_THREE",
      "C_TWO"
    ])
    expect(dynamic.sort()).toEqual(["a.ts: Config.Redacted(variable)", "a.ts: process.env[key]"])
  })

  it("finds every variable AppConfig's layer asks for when it runs", async () => {
    const recorded = [...(await recordedReads())].sort()
    // A sample that must be there, so that an empty recording cannot pass.
    expect(recorded).toEqual(expect.arrayContaining(["HOST", "PORT", "DATABASE_URL", "PARLEY_SANDBOX_MEMORY"]))
    expect(recorded.filter((name) => !scan.names.has(name))).toEqual([])
  })

  it("finds no read whose variable it cannot name, but apiKeyEnv's", () => {
    expect(scan.dynamic.sort()).toEqual(knownDynamic)
  })
})

describe("docs/configuration.md", () => {
  it("documents every environment variable the code reads", () => {
    expect(codeNames.filter((name) => !documentedNames.includes(name))).toEqual([])
  })

  it("documents no variable the code does not read", () => {
    expect(documentedNames.filter((name) => !scan.names.has(name))).toEqual([])
    // Nor anywhere else in the guide, but those read by the OpenTelemetry SDK and examples of apiKeyEnv.
    const mentioned = [...guide.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9*]+)+)(?:=[^`]*)?`/g)].map((m) => m[1]!)
    expect([...new Set(mentioned)].filter((name) => !scan.names.has(name) && !readByOthers.has(name))).toEqual([])
  })

  it("documents every config-file key the schema accepts, and no other", () => {
    // A `route` entry is decoded by its own schema (config/RouteConfig.ts); its keys are the table's too.
    const routes = Schema.Struct({ providers: Schema.Array(RouteProviderEntry) })
    const schemaKeys = [...new Set([...keyPaths(ConfigFileContent.ast), ...keyPaths(routes.ast)])].sort()
    expect(schemaKeys).toEqual(expect.arrayContaining(["providers", "providers[].models[].pricing.inputPerMTok"]))
    const documentedKeys = firstCells(section(guide, "Config file")).filter((cell) => /^[a-z]/.test(cell)).sort()
    expect(schemaKeys.filter((key) => !documentedKeys.includes(key))).toEqual([])
    expect(documentedKeys.filter((key) => !schemaKeys.includes(key))).toEqual([])
  })

  it("shows config files the schema accepts", () => {
    const decode = Schema.decodeUnknownSync(ConfigFileContent, { onExcessProperty: "error" })
    const files = [...guide.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((text) =>
      text.includes("\"providers\"")
    )
    expect(files.length).toBeGreaterThan(0)
    for (const text of files) expect(() => decode(JSON.parse(text))).not.toThrow()
  })
})

describe(".env.example", () => {
  const example = readFileSync(join(repo, ".env.example"), "utf8")
  // PATH is the system's and npm_lifecycle_event npm's, not settings of parley's.
  const settings = codeNames.filter((name) => name !== "PATH" && name !== "npm_lifecycle_event")

  it("lists every variable the code reads", () => {
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!))
    expect(settings.filter((name) => !listed.has(name))).toEqual([])
  })
})
