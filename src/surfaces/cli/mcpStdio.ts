/**
 * The body of `domain-intel mcp` (./mcp.ts), loaded only when that command runs: it needs the
 * whole service and the MCP server, which the other commands do not.
 */
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../../platform/Config"
import { workSignal } from "../../platform/jitPolicy"
import { ServicesLive } from "../server/Http"
import { CtHistory } from "../../adapters/ct/CtHistory"
import { McpServicesLive } from "../mcp/http"
import { API_KEY_ENV, serveLocal, serveRemote, StdioSetupError } from "../mcp/stdio"

const fail = (message: string) =>
  Effect.sync(() => {
    process.stderr.write(`domain-intel mcp: ${message}\n`)
    process.exit(2)
  })

export const program = (remoteUrl: Option.Option<string>) =>
  Effect.gen(function*() {
    const key = process.env[API_KEY_ENV]?.trim() ?? ""
    if (key.length === 0) return yield* Effect.fail(new StdioSetupError(`set ${API_KEY_ENV} to an API key (pro plan or above)`))
    // A stdio session exists to answer its client: work from its start (src/platform/jitPolicy.ts).
    workSignal.work()
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
