import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Api } from "../Api"
import { NotReady } from "./api"

export const SystemLive = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        sql`SELECT 1 AS one`.pipe(
          Effect.as({ status: "ready" as const, database: "ok" as const }),
          Effect.mapError(() => new NotReady({ message: "database unavailable" }))
        ))
  })
)
