/**
 * The `domain-intel` program (DECISIONS.md "Running it" and "Second wave → Accounts"): serve
 * (default), keys, orgs, audit-tokens, migrate. Logs go to stderr as JSON; stdout carries only
 * what a script reads (a key or token alone on the last line, or a listing).
 *
 * Exit codes: 0 done; 1 runtime failure (database, listener, …); 2 usage error or refused
 * request (unknown command, bad option, an org on another plan, a public-suffix audit domain).
 * Every failure is ONE line on stderr: `domain-intel: <what went wrong>`.
 */
import { Command, HelpDoc, ValidationError } from "@effect/cli"
import * as BunContext from "@effect/platform-bun/BunContext"
import * as BunRuntime from "@effect/platform-bun/BunRuntime"
import { Cause, Console, Effect, Exit, HashMap, Layer, Logger, LogLevel } from "effect"
import { auditTokensCommand, groups, keysCommand, orgsCommand } from "./surfaces/cli/accounts"
import { AppConfig } from "./platform/Config"
import { mcpCommand } from "./surfaces/cli/mcp"
import { SqlLive } from "./platform/store/Sql"
import { version } from "../package.json"

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

const serve = Command.make("serve", {}, () => serveProgram).pipe(
  Command.withDescription("Start the HTTP server (applies migrations first; the default with no command)")
)

const migrate = Command.make("migrate", {}, () =>
  Console.log("migrations applied").pipe(Effect.provide(SqlLive), Effect.provide(AppConfig.Live))
).pipe(Command.withDescription("Apply database migrations and exit"))

const root = Command.make("domain-intel", {}, () => serveProgram).pipe(
  Command.withDescription("Domain intelligence HTTP/JSON service"),
  Command.withSubcommands([serve, keysCommand, orgsCommand, auditTokensCommand, migrate, mcpCommand])
)

/** Raised before parsing: an unknown command, named at the level where it was given. */
class UsageError extends Error {}

const checkCommandNames = (args: ReadonlyArray<string>) => {
  const top = [...HashMap.keys(Command.getSubcommands(root))]
  const [first, second] = args
  if (first === undefined || first.startsWith("-")) return
  if (!top.includes(first)) throw new UsageError(`unknown command '${first}'; commands: ${top.join(", ")} (see --help)`)
  const children = groups[first]
  if (children === undefined) return
  if (second === undefined) throw new UsageError(`'${first}' needs a command: ${children.join(", ")} (see ${first} --help)`)
  if (!second.startsWith("-") && !children.includes(second)) {
    throw new UsageError(`unknown command '${first} ${second}'; ${first} commands: ${children.join(", ")} (see ${first} --help)`)
  }
}

/** The one line a failure prints, and its exit code. */
const describeFailure = (cause: Cause.Cause<unknown>): { readonly line: string | undefined; readonly code: number } => {
  const error = Cause.squash(cause)
  if (ValidationError.isValidationError(error)) {
    const text = "error" in error ? HelpDoc.toAnsiText(error.error).replace(/\x1b\[[0-9;]*m/g, "") : String((error as { _tag?: unknown })._tag)
    return { line: text.replace(/\s*\n\s*/g, " ").trim(), code: 2 }
  }
  const tag = typeof error === "object" && error !== null && "_tag" in error ? String((error as { _tag: unknown })._tag) : ""
  const message = error instanceof Error || (typeof error === "object" && error !== null && "message" in error)
    ? String((error as { message: unknown }).message)
    : String(error)
  const oneLine = message.replace(/\s*\n\s*/g, " ").trim() || tag || "failed"
  if (tag === "AccountRefused" || error instanceof UsageError) return { line: oneLine, code: 2 }
  if (tag === "SqlError") return { line: `database error: ${oneLine}`, code: 1 }
  if (tag === "ServeError" || /EADDRINUSE|address already in use|Failed to start server/i.test(oneLine)) {
    return { line: `cannot start the listener: ${oneLine}`, code: 1 }
  }
  return { line: oneLine, code: 1 }
}

/** @effect/cli prints parse errors itself, over several lines; they are reported as one line below. */
const withoutCliErrorPrinting = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.console, (c) =>
    Effect.withConsole(effect, { ...c, error: () => Effect.void, unsafe: { ...c.unsafe, error: () => {} } }))

const program = Effect.suspend(() => {
  const args = process.argv.slice(2)
  // `serve`, or no command, has nothing to parse: the server starts without a first (cold) run
  // of the command parser (docs/operating.md, "The binary").
  if (args.length === 0 || (args.length === 1 && args[0] === "serve")) return serveProgram
  checkCommandNames(args)
  return Command.run(root, { name: "domain-intel", version })(process.argv).pipe(withoutCliErrorPrinting)
}).pipe(
  Effect.as(0),
  Effect.catchAllCause((cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.succeed(0)
    const { code, line } = describeFailure(cause)
    return (line === undefined ? Effect.void : Console.error(`domain-intel: ${line}`)).pipe(Effect.as(code))
  })
)

program.pipe(
  Effect.provide(BunContext.layer),
  Effect.provide(ConfigAndLoggingLive),
  BunRuntime.runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) =>
      onExit(Exit.isSuccess(exit) ? (typeof exit.value === "number" ? exit.value : 0) : Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
  })
)
