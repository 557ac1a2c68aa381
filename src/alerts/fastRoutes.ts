/**
 * The alert-rule reads on the fast path (src/http/FastPath.ts): the same SQL text as
 * `Alerts.listRules`/`Alerts.getRule` (`ruleReads`), run on the ReadStore connection, and the
 * same row → JSON mapping.
 */
import { type FastRoute, HandOver } from "../http/FastPath"
import type { Reader } from "../store/ReadStore"
import { ruleReads } from "./Alerts"
import { ruleJson, type RuleRow } from "./analyze"

export const alertFastRoutes = (reader: Reader): ReadonlyArray<FastRoute> => [
  {
    operation: "listAlertRules",
    read: (org) => ({ rules: reader.all<RuleRow>(ruleReads.list, org.id).map(ruleJson) })
  },
  {
    operation: "getAlertRule",
    read: (org, path: { readonly id: string }) => {
      const row = reader.all<RuleRow>(ruleReads.one, path.id, org.id)[0]
      // Not found: the full path answers the 404.
      return row === undefined ? HandOver : { rule: ruleJson(row) }
    }
  }
]
