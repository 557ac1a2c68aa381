/**
 * Migrations, imported statically so they are bundled into the `bun build --compile` binary
 * (`fromFileSystem` cannot read `/$bunfs`). Add new ones here in order.
 */
import m0001 from "./0001_init"
import m0004 from "./0004_analytics"
import m0006 from "./0006_quota_usage"
import m0010 from "./0010_ct_cache"
import m0020 from "./0020_webhook_secrets"
import m0040 from "./0040_accounts"
import m0050 from "./0050_monitors"
import m0060 from "./0060_monitor_rollups"
import m0070 from "./0070_request_log_lean"
import m0080 from "./0080_monitor_locations"

export const migrations = {
  "0001_init": m0001,
  "0004_analytics": m0004,
  "0006_quota_usage": m0006,
  "0010_ct_cache": m0010,
  "0020_webhook_secrets": m0020,
  "0040_accounts": m0040,
  "0050_monitors": m0050,
  "0060_monitor_rollups": m0060,
  "0070_request_log_lean": m0070,
  "0080_monitor_locations": m0080
}
