import { Effect } from "effect"
import { TlsScan } from "../../analyses/tls/TlsScan"
import { Api } from "../api/Api"
import { HttpApiBuilder } from "@effect/platform"

export const TlsLive = HttpApiBuilder.group(Api, "tls", (handlers) =>
  handlers.handle("tlsScan", ({ urlParams }) => Effect.flatMap(TlsScan, (s) => s.scan(urlParams.host, urlParams.port ?? 443)))
)
