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
          // A database that does not answer in time is as unavailable as one that refuses; a
          // lost PostgreSQL connection surfaces as a defect of the driver, so every cause counts.
          Effect.timeoutFail({ duration: "3 seconds", onTimeout: () => new NotReady({ message: "database unavailable" }) }),
          Effect.as({ status: "ready" as const, database: "ok" as const }),
          Effect.catchAllCause(() => Effect.fail(new NotReady({ message: "database unavailable" })))
        ))
  })
)
