import { Cause, Context, Layer, Logger, type LogLevel, References } from "effect"
import type { LogFormat, LogLevelName } from "../config/ObservabilityConfig.ts"
import { isoTime } from "./logTime.ts"

/** Where finished log lines go: stdout in production; tests capture them. */
export type LogSink = (line: string) => void

const stdout: LogSink = (line) => void process.stdout.write(`${line}\n`)

const LEVELS: Readonly<Record<LogLevelName, LogLevel.LogLevel>> = {
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error"
}

const isFields = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * One log entry as flat fields (docs/DESIGN.md §8): `time`, `level`, `msg`,
 * then the log annotations (the correlation id), the fields logged with the
 * message (`Effect.logInfo("request", fields)`) and the rendered cause, if any.
 */
export const entryOf = (options: Logger.Options<unknown>): Record<string, unknown> => {
  const parts: ReadonlyArray<unknown> = Array.isArray(options.message) ? options.message : [options.message]
  const texts: Array<string> = []
  const entry: Record<string, unknown> = {
    time: isoTime(options.date.getTime()),
    level: options.logLevel.toLowerCase(),
    msg: ""
  }
  Object.assign(entry, options.fiber.getRef(References.CurrentLogAnnotations))
  for (const part of parts) {
    if (isFields(part)) Object.assign(entry, part)
    else texts.push(String(part))
  }
  entry.msg = texts.join(" ")
  if (options.cause.reasons.length > 0) entry.cause = Cause.pretty(options.cause)
  return entry
}

const COLORS: Readonly<Record<string, string>> = { debug: "90", info: "32", warn: "33", error: "31" }

// Control characters (C0, DEL, C1), line and paragraph separators and bidi controls: what a request's text could use
// to forge a line, move a terminal's cursor or reorder what a person reads (docs/DESIGN.md §3.24).
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu
const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`

/** Text as a pretty line shows it: every such character escaped, `\u001b` for ESC, as JSON escapes controls. */
export const visible = (text: string): string => text.replace(INVISIBLE, escaped)

// For a person at a terminal: `12:00:00.000 INFO request status=200 …`, the cause on the lines below (each shown).
const prettyLine = (entry: Record<string, unknown>): string => {
  const { cause, level, msg, time, ...fields } = entry
  const levelText = String(level)
  const head = `${String(time).slice(11, 23)} \x1b[${COLORS[levelText] ?? "0"}m${levelText.toUpperCase()}\x1b[0m ${
    visible(String(msg))
  }`
  let line = head
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) {
      line += ` ${visible(name)}=${visible(typeof value === "string" ? value : JSON.stringify(value))}`
    }
  }
  return cause === undefined ? line : `${line}\n${String(cause).split("\n").map(visible).join("\n")}`
}

/** The gateway's logger in the format asked for, writing each entry as one line (JSON) to `sink`. */
export const lineLogger = (format: LogFormat, sink: LogSink = stdout): Logger.Logger<unknown, void> =>
  Logger.make((options) => {
    const entry = entryOf(options)
    sink(format === "json" ? JSON.stringify(entry) : prettyLine(entry))
  })

/**
 * Where `info` lines go when the logs are JSON at `info` or below, for a
 * writer that makes its line itself rather than through Effect's logger:
 * the request line (`observeRequest.ts`), ~5 µs less a request (BENCHMARKS.md).
 * Unset when such lines are not written, or not as JSON.
 */
export const JsonInfoSink = Context.Reference<LogSink | undefined>("parley/observability/JsonInfoSink", {
  defaultValue: () => undefined
})

/**
 * Replaces Effect's default logger for everything built under it (the
 * services and the server, whose requests run in their context) and sets
 * the least severe level written. `quiet` (tests, the demo): Effect's
 * default logger, warnings and errors only, so no line per request.
 */
export const loggingLayer = (
  options: { readonly level: LogLevelName; readonly format: LogFormat; readonly sink?: LogSink | undefined } | "quiet"
) =>
  options === "quiet"
    ? Layer.succeed(References.MinimumLogLevel, "Warn")
    : Layer.mergeAll(
      Logger.layer([lineLogger(options.format, options.sink)]),
      Layer.succeed(References.MinimumLogLevel, LEVELS[options.level]),
      Layer.succeed(
        JsonInfoSink,
        options.format === "json" && (options.level === "debug" || options.level === "info")
          ? options.sink ?? stdout
          : undefined
      )
    )
