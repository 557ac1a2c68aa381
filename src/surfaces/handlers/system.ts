import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { NotReady } from "../../kernel/errors"

export const SystemLive = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        // A real read and a write statement (that changes nothing): `SELECT 1` succeeds on an
        // open handle whatever became of the file, and the service must be able to write its
        // request log. A database that does not answer within 2 s (locked, stalled) is not ready.
        Effect.zipRight(
          sql`SELECT COUNT(*) AS n FROM organizations`,
          sql`UPDATE quota_usage SET used = used WHERE 1 = 0`
        ).pipe(
          Effect.timeoutFail({ duration: "2 seconds", onTimeout: () => new NotReady({ message: "database unavailable" }) }),
          Effect.as({ status: "ready" as const, database: "ok" as const }),
          Effect.catchAllCause(() => new NotReady({ message: "database unavailable" }))
        ))
  })
)
