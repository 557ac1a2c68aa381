/**
 * The raw request log is written once per request (batched) and read only by pruning, in id
 * order: the analytics read the rollups. Its (org_id, ts) index had no reader left and cost one
 * more B-tree insert per logged request, on every instance (docs/analytics.md).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS request_log_org_ts`
})
