/**
 * The `domain-intel mcp [--remote URL]` sub-command: MCP over stdio (./stdio.ts) with the
 * service's own layers (local mode) or as a forwarder to a hosted endpoint (remote mode).
 * Setup problems (no key, unknown key, plan, bad URL) are one line on stderr and exit status 2.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../../platform/Config"
import { ServicesLive } from "../server/Http"
import { CtHistory } from "../../adapters/ct/CtHistory"
import { McpServicesLive } from "../mcp/http"
import { API_KEY_ENV, serveLocal, serveRemote, StdioSetupError } from "../mcp/stdio"

const remote = Options.text("remote").pipe(
  Options.optional,
  Options.withDescription("forward every message to this hosted MCP endpoint (https://HOST/v1/advanced/mcp) instead of running the tools here")
)

const fail = (message: string) =>
  Effect.sync(() => {
    process.stderr.write(`domain-intel mcp: ${message}\n`)
    process.exit(2)
  })

const program = (remoteUrl: Option.Option<string>) =>
  Effect.gen(function*() {
    const key = process.env[API_KEY_ENV]?.trim() ?? ""
    if (key.length === 0) return yield* Effect.fail(new StdioSetupError(`set ${API_KEY_ENV} to an API key (pro plan or above)`))
    if (Option.isSome(remoteUrl)) return yield* serveRemote(key, remoteUrl.value)
    return yield* serveLocal(key).pipe(
      Effect.provide(McpServicesLive.pipe(Layer.provide(CtHistory.FromAggregator))),
      Effect.provide(ServicesLive),
      Effect.provide(AppConfig.Live)
    )
  }).pipe(
    Effect.catchIf((e): e is StdioSetupError => e instanceof StdioSetupError, (e) => fail(e.message)),
    // Everything is answered: leave even if a socket or timer would keep the loop alive.
    Effect.ensuring(Effect.sync(() => process.exitCode = process.exitCode ?? 0))
  )

export const mcpCommand = Command.make("mcp", { remote }, ({ remote }) => program(remote)).pipe(
  Command.withDescription(`Serve MCP over stdio (newline-delimited JSON-RPC) for desktop clients, acting for the key in ${API_KEY_ENV}`)
)
