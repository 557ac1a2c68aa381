import { Effect } from "effect"
import { TlsScan } from "../../../analyses/tls/TlsScan"
import { Api } from "../../../Api"
import { group } from "../../../http/group"

export const TlsLive = group(Api, "tls", (handlers) =>
  handlers.handle("tlsScan", ({ urlParams }) => Effect.flatMap(TlsScan, (s) => s.scan(urlParams.host, urlParams.port ?? 443)))
)
