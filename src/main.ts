/**
 * The `domain-intel` program (docs/cli.md): serve (default), keys, orgs, audit-tokens, migrate.
 * Logs go to stderr as JSON; stdout carries only what a script reads (a key or token alone on the
 * last line, or a listing).
 *
 * Exit codes: 0 done; 1 runtime failure (database, listener, …); 2 usage error or refused
 * request (unknown command, bad option, an org on another plan, a public-suffix audit domain).
 * Every failure is ONE line on stderr: `domain-intel: <what went wrong>`.
 */
import * as BunContext from "@effect/platform-bun/BunContext"
import * as BunRuntime from "@effect/platform-bun/BunRuntime"
import { Cause, Console, Effect, Exit, HashMap, Layer, Logger, LogLevel } from "effect"
import { AppConfig } from "./platform/Config"

const logLevel = (name: string): LogLevel.LogLevel =>
  LogLevel.allLevels.find((l) => l.label.toLowerCase() === name.toLowerCase()) ?? LogLevel.Info

/**
 * One JSON object per line: timestamp, level, message (a string), then the annotations as
 * top-level fields (the access log's request_id, status, …), and the cause of a failure as text.
 */
const jsonLines = Logger.make(({ annotations, cause, date, logLevel, message }) => {
  const parts = Array.isArray(message) ? message : [message]
  const line: Record<string, unknown> = {
    timestamp: date.toISOString(),
    level: logLevel.label,
    message: parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join(" ")
  }
  for (const [k, v] of HashMap.toEntries(annotations)) line[k] = v
  if (!Cause.isEmpty(cause)) line.cause = Cause.pretty(cause, { renderErrorCause: true })
  process.stderr.write(JSON.stringify(line) + "\n")
})

const LoggingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (c) =>
    Layer.mergeAll(
      Logger.replace(
        Logger.defaultLogger,
        // Straight to stderr, not through the Console service (which the CLI quiets while parsing).
        c.logFormat === "pretty"
          ? Logger.prettyLogger({ stderr: true })
          : jsonLines
      ),
      Logger.minimumLogLevel(logLevel(c.logLevel))
    )
  )
)

/** The configuration, read once, and the logger it chooses (every command needs both). */
const ConfigAndLoggingLive = LoggingLive.pipe(Layer.provideMerge(AppConfig.Live))

/** The server (src/surfaces/server/serve.ts), loaded on demand so other commands start quickly. */
const serveProgram = Effect.flatMap(Effect.promise(() => import("./surfaces/server/serve")), (m) => m.serveProgram)

/** The one line a failure prints, and its exit code. */
const describeFailure = (cause: Cause.Cause<unknown>): { readonly line: string | undefined; readonly code: number } => {
  const error = Cause.squash(cause)
  const tag = typeof error === "object" && error !== null && "_tag" in error ? String((error as { _tag: unknown })._tag) : ""
  const message = error instanceof Error || (typeof error === "object" && error !== null && "message" in error)
    ? String((error as { message: unknown }).message)
    : String(error)
  const oneLine = message.replace(/\s*\n\s*/g, " ").trim() || tag || "failed"
  // Refused requests and the command line's usage errors (src/surfaces/cli/commands.ts).
  if (tag === "AccountRefused" || tag === "UsageError") return { line: oneLine, code: 2 }
  if (tag === "SqlError") return { line: `database error: ${oneLine}`, code: 1 }
  if (tag === "ServeError" || /EADDRINUSE|address already in use|Failed to start server/i.test(oneLine)) {
    return { line: `cannot start the listener: ${oneLine}`, code: 1 }
  }
  return { line: oneLine, code: 1 }
}

const program = Effect.suspend(() => {
  const args = process.argv.slice(2)
  // `serve`, or no command, starts the server without the command-line parser and its command
  // definitions (@effect/cli), which are evaluated only for the other commands (docs/operating.md,
  // "The binary").
  if (args.length === 0 || (args.length === 1 && args[0] === "serve")) return serveProgram
  // The platform's services (file system, terminal, …) are the command line's; the server needs none.
  return Effect.flatMap(Effect.promise(() => import("./surfaces/cli/commands")), (m) => m.runCommands(process.argv, serveProgram)).pipe(
    Effect.provide(BunContext.layer)
  )
}).pipe(
  // Inside the failure handler, so a refused setting (INSTANCE_LOCATION=EU, …) is its one line too.
  Effect.provide(ConfigAndLoggingLive),
  Effect.as(0),
  Effect.catchAllCause((cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.succeed(0)
    const { code, line } = describeFailure(cause)
    return (line === undefined ? Effect.void : Console.error(`domain-intel: ${line}`)).pipe(Effect.as(code))
  })
)

program.pipe(
  BunRuntime.runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) =>
      onExit(Exit.isSuccess(exit) ? (typeof exit.value === "number" ? exit.value : 0) : Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
  })
)
