import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { TlsScan } from "../../analyses/tls/TlsScan"
import { Api } from "../api/Api"
import { TlsScanInputs } from "../api/tls"

/** A TLS scan from its decoded inputs: what the REST operation and the MCP tool `tls_scan` both run. */
export const tlsScan = (inputs: typeof TlsScanInputs.json.Type) =>
  Effect.flatMap(TlsScan, (s) => s.scan(inputs.host, inputs.port ?? TlsScanInputs.defaults.port))

export const TlsLive = HttpApiBuilder.group(Api, "tls", (handlers) =>
  handlers.handle("tlsScan", ({ urlParams }) => tlsScan(urlParams))
)
