/**
 * The `domain-intel mcp [--remote URL]` sub-command: MCP over stdio (./stdio.ts) with the
 * service's own layers (local mode) or as a forwarder to a hosted endpoint (remote mode).
 * Setup problems (no key, unknown key, plan, bad URL) are one line on stderr and exit status 2.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { API_KEY_ENV } from "../mcp/route"

const remote = Options.text("remote").pipe(
  Options.optional,
  Options.withDescription("forward every message to this hosted MCP endpoint (https://HOST/v1/advanced/mcp) instead of running the tools here")
)

/** The command's body and the service it runs are loaded only when `mcp` is the command. */
const program = (remoteUrl: Option.Option<string>) =>
  Effect.flatMap(Effect.promise(() => import("./mcpStdio")), (m) => m.program(remoteUrl))

export const mcpCommand = Command.make("mcp", { remote }, ({ remote }) => program(remote)).pipe(
  Command.withDescription(`Serve MCP over stdio (newline-delimited JSON-RPC) for desktop clients, acting for the key in ${API_KEY_ENV}`)
)
