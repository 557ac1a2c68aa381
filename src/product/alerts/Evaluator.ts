/**
 * One evaluation pass: every enabled rule's metric over its window (from the minute rollups),
 * then the decision of `decide` and, when it fires, a pending alert with its notifications.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { Analytics } from "../analytics/Analytics"
import { Keys } from "../accounts/Keys"
import { RequestLog } from "../metering/RequestLog"
import { Alerts } from "./Alerts"
import { decide, type RuleRow } from "./analyze"

export const evaluateOnce = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const analytics = yield* Analytics
  const alerts = yield* Alerts
  const keys = yield* Keys
  yield* Effect.flatMap(RequestLog, (l) => l.flush)
  const rules = yield* sql<RuleRow & { open: number }>`
    SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM alerts a WHERE a.rule_id = r.id AND a.status != 'resolved') THEN 1 ELSE 0 END AS open
    FROM alert_rules r WHERE r.enabled = 1 ORDER BY r.id`
  const fired: Array<string> = []
  for (const rule of rules) {
    const org = yield* keys.orgById(rule.org_id)
    if (Option.isNone(org)) continue
    const observed = yield* analytics.metric(org.value, rule.metric, rule.window_minutes)
    const now = yield* Clock.currentTimeMillis
    const decision = decide({
      enabled: rule.enabled === 1,
      operator: rule.operator,
      thresholdValue: rule.threshold_value,
      cooldownMinutes: rule.cooldown_minutes,
      lastTriggeredAt: rule.last_triggered_at,
      hasUnresolved: rule.open === 1
    }, observed, now)
    if (decision.fire && observed !== undefined) {
      const alert = yield* alerts.trigger(rule, observed)
      if (Option.isSome(alert)) fired.push(alert.value.id)
    }
  }
  return { rules: rules.length, fired }
}).pipe(Effect.withSpan("AlertEvaluator.evaluateOnce"))
