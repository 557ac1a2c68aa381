/**
 * The command line beyond `serve` (docs/cli.md): keys, orgs, audit-tokens, migrate, mcp, and serve
 * with options, parsed by @effect/cli. Loaded by src/main.ts only when a command other than a bare
 * `serve` is given, so a server's start does not evaluate the command definitions
 * (docs/operating.md, "The binary").
 */
import { Command, HelpDoc, ValidationError } from "@effect/cli"
import { Console, Effect, HashMap } from "effect"
import { AppConfig } from "../../platform/Config"
import { SqlLive } from "../../platform/store/Sql"
import { auditTokensCommand, groups, keysCommand, orgsCommand } from "./accounts"
import { mcpCommand } from "./mcp"
import { version } from "../../../package.json"

/** A command line that names no command, or a wrong one: exit code 2, one line (src/main.ts). */
export class UsageError extends Error {
  readonly _tag = "UsageError"
}

const commands = <E, R>(serveProgram: Effect.Effect<void, E, R>) => {
  const serve = Command.make("serve", {}, () => serveProgram).pipe(
    Command.withDescription("Start the HTTP server (applies migrations first; the default with no command)")
  )
  const migrate = Command.make("migrate", {}, () =>
    Console.log("migrations applied").pipe(Effect.provide(SqlLive), Effect.provide(AppConfig.Live))
  ).pipe(Command.withDescription("Apply database migrations and exit"))
  return Command.make("domain-intel", {}, () => serveProgram).pipe(
    Command.withDescription("Domain intelligence HTTP/JSON service"),
    Command.withSubcommands([serve, keysCommand, orgsCommand, auditTokensCommand, migrate, mcpCommand])
  )
}

/** Raised before parsing: an unknown command, named at the level where it was given. */
const checkCommandNames = (root: ReturnType<typeof commands>, args: ReadonlyArray<string>) => {
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

/** @effect/cli prints parse errors itself, over several lines; they are reported as one line (src/main.ts). */
const withoutCliErrorPrinting = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.console, (c) =>
    Effect.withConsole(effect, { ...c, error: () => Effect.void, unsafe: { ...c.unsafe, error: () => {} } }))

/** A parse error as the one-line usage error it is. */
const oneLineUsage = (error: ValidationError.ValidationError): UsageError =>
  new UsageError(
    ("error" in error ? HelpDoc.toAnsiText(error.error).replace(/\x1b\[[0-9;]*m/g, "") : String((error as { _tag?: unknown })._tag)).replace(/\s*\n\s*/g, " ").trim()
  )

/** Parses `argv` (as process.argv) and runs the command it names. */
export const runCommands = <E, R>(argv: ReadonlyArray<string>, serveProgram: Effect.Effect<void, E, R>) =>
  Effect.suspend(() => {
    const root = commands(serveProgram)
    checkCommandNames(root, argv.slice(2))
    return Command.run(root, { name: "domain-intel", version })(argv).pipe(
      withoutCliErrorPrinting,
      Effect.catchIf(ValidationError.isValidationError, (e) => Effect.fail(oneLineUsage(e)))
    )
  })
