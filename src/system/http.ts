import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Api } from "../Api"
import { NotReady } from "../domain/errors"

export const SystemLive = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        // A real table read: `SELECT 1` succeeds on an open handle to a file that is gone or garbage.
        sql`SELECT COUNT(*) AS n FROM organizations`.pipe(
          Effect.as({ status: "ready" as const, database: "ok" as const }),
          Effect.catchAllCause(() => new NotReady({ message: "database unavailable" }))
        ))
  })
)
