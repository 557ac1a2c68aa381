/**
 * The `domain-intel` program (DECISIONS.md "Running it"): serve (default), keys create,
 * audit-tokens create, migrate. Logs go to stderr as JSON; stdout carries only what a script
 * reads (a key or token alone on the last line).
 */
import { Command, Options } from "@effect/cli"
import { BunContext, BunRuntime } from "@effect/platform-bun"
import { Console, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { Keys } from "./auth/Keys"
import { AppConfig } from "./Config"
import { Plan } from "./domain/plans"
import { ServerLive, ServicesLive } from "./Http"
import { mcpCommand } from "./mcp/command"
import { SqlLive } from "./store/Sql"

const version = "0.1.0"

const logLevel = (name: string): LogLevel.LogLevel =>
  LogLevel.allLevels.find((l) => l.label.toLowerCase() === name.toLowerCase()) ?? LogLevel.Info

const LoggingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (c) =>
    Layer.mergeAll(
      Logger.replace(
        Logger.defaultLogger,
        c.logFormat === "pretty" ? Logger.withConsoleError(Logger.prettyLoggerDefault) : Logger.withConsoleError(Logger.jsonLogger)
      ),
      Logger.minimumLogLevel(logLevel(c.logLevel))
    )
  )
).pipe(Layer.provide(AppConfig.Live))

const serveProgram = Effect.gen(function*() {
  const keys = yield* Keys
  const created = yield* keys.bootstrap()
  if (Option.isSome(created)) {
    yield* Console.log("No organization existed: created 'default' on the enterprise plan. Its API key (shown once):")
    yield* Console.log(created.value)
  }
  return yield* Layer.launch(ServerLive)
}).pipe(Effect.provide(ServicesLive), Effect.provide(AppConfig.Live))

const serve = Command.make("serve", {}, () => serveProgram).pipe(
  Command.withDescription("Start the HTTP server (applies migrations first)")
)

const org = Options.text("org").pipe(Options.withDescription("organization name"))
const plan = Options.choice("plan", Plan.literals).pipe(Options.withDescription("free, developer, pro or enterprise"))
const domain = Options.text("domain").pipe(Options.withDescription("domain the token proves ownership of"))

const keysCreate = Command.make("create", { org, plan }, ({ org, plan }) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const issued = yield* keys.issueKey(org, plan)
    yield* Console.log(`API key for organization '${issued.org.name}' (${issued.org.plan}), shown once:`)
    yield* Console.log(issued.key)
  }).pipe(Effect.provide(Keys.Default), Effect.provide(SqlLive), Effect.provide(AppConfig.Live))
).pipe(Command.withDescription("Create the organization if missing and issue an API key"))

const auditTokensCreate = Command.make("create", { org, domain }, ({ org, domain }) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const issued = yield* keys.issueAuditToken(org, domain)
    yield* Console.log(`Audit token for ${domain} (organization '${issued.org.name}'), shown once:`)
    yield* Console.log(issued.token)
  }).pipe(Effect.provide(Keys.Default), Effect.provide(SqlLive), Effect.provide(AppConfig.Live))
).pipe(Command.withDescription("Issue an audit token proving ownership of a domain (WAF active probe)"))

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    yield* Effect.void
    yield* Console.log("migrations applied")
  }).pipe(Effect.provide(SqlLive), Effect.provide(AppConfig.Live))
).pipe(Command.withDescription("Apply database migrations and exit"))

const root = Command.make("domain-intel", {}, () => serveProgram).pipe(
  Command.withSubcommands([
    serve,
    Command.make("keys").pipe(Command.withSubcommands([keysCreate])),
    Command.make("audit-tokens").pipe(Command.withSubcommands([auditTokensCreate])),
    migrate,
    mcpCommand
  ])
)

const cli = Command.run(root, { name: "domain-intel", version })

cli(process.argv).pipe(
  Effect.provide(BunContext.layer),
  Effect.provide(LoggingLive),
  BunRuntime.runMain({ disablePrettyLogger: true })
)
