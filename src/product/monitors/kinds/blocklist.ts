/**
 * `blocklist` (docs/operations/monitors.md, "Kinds"): each run is the report of
 * GET /v1/security/blocklist for the target (an IP address or a domain). With the condition
 * `listed` (the default), the run is not ok when a (list, item) is listed that the previous run
 * did not have listed (the first run has nothing before it: every listing is new), and its
 * summary names each such list and item. A listing the previous run had stays known while its
 * list gives no usable answer (an `error` entry is not a delisting), so a list that refuses one
 * run does not make its listings "new" again on the next.
 */
import { Effect, Schema } from "effect"
import { Blocklist } from "../../../analyses/blocklist/Blocklist"
import { parseTarget } from "../../../analyses/blocklist/plan"
import type { BlocklistReport } from "../../../analyses/blocklist/schema"
import { InvalidRequest } from "../../../kernel/errors"
import type { Baseline, Verdict } from "../model/analyze"
import { defineKind } from "../model/kindSpec"

export const BlocklistConditions = Schema.Struct({
  /** A (list, item) newly listed makes the run not ok. */
  listed: Schema.optional(Schema.Boolean)
})
export type BlocklistConditions = typeof BlocklistConditions.Type

type Entry = BlocklistReport["lists"][number]

/** A listing as the baseline remembers it. */
const keyOf = (e: Pick<Entry, "zone" | "item">) => `${e.item} ${e.zone}`

/** At most this many entries and limitations are kept with a run's result. */
const KEPT = 50

/** Pure: the verdict on a blocklist report. */
export const evaluateBlocklist = (c: BlocklistConditions, r: BlocklistReport, previous: Baseline | null): Verdict => {
  const before = new Set(previous?.listing_keys ?? [])
  const listed = r.lists.filter((e) => e.status === "listed")
  const fresh = c.listed === false ? [] : listed.filter((e) => !before.has(keyOf(e)))
  // Unknown is not delisted: a remembered listing whose list gave no usable answer is kept.
  const unknown = new Set(r.lists.filter((e) => e.status === "error").map(keyOf))
  const kept = [...before].filter((k) => unknown.has(k))
  const errors = r.lists.length - listed.length - r.lists.filter((e) => e.status === "not_listed").length
  const named = fresh.map((e) => `${e.item} on ${e.zone}${e.codes.length > 0 ? ` (${e.codes.join(", ")})` : ""}`)
  return {
    ok: fresh.length === 0,
    summary: fresh.length > 0
      ? `newly listed: ${named.join("; ")}`
      : `${listed.length === 0 ? "listed nowhere" : `${listed.length} listing${listed.length === 1 ? "" : "s"}, none new`}; ${r.lists.length} (list, item) pairs asked${errors > 0 ? `, ${errors} without a usable answer` : ""}`,
    report: {
      target: r.target,
      kind: r.kind,
      ips: r.ips.slice(0, KEPT),
      listed_count: r.listed_count,
      listed: listed.slice(0, KEPT),
      new_listings: fresh.slice(0, KEPT),
      errors: r.lists.filter((e) => e.status === "error").slice(0, KEPT),
      limitations: r.limitations.slice(0, KEPT)
    },
    baseline: { ...previous, listing_keys: [...new Set([...listed.map(keyOf), ...kept])] }
  }
}

/** The stored target: an address in its canonical spelling, or a domain. */
const blocklistTarget = (raw: string) => {
  const t = parseTarget(raw)
  return t instanceof InvalidRequest ? t : t.kind === "ip" ? t.item.value : t.domain
}

export const blocklistKind = defineKind<BlocklistConditions>({
  conditions: BlocklistConditions,
  defaults: { listed: true },
  minIntervalFactor: 10,
  target: blocklistTarget,
  // DNS questions about the target, never a connection to it. An address is still judged by the
  // guard as a literal (a non-public one is refused, as the REST operation refuses it); nothing
  // is resolved for it.
  guard: (t) => {
    const ip = parseTarget(t)
    return ip instanceof InvalidRequest || ip.kind === "domain"
      ? { url: `https://${t}/`, connects: false }
      : { url: ip.item.kind === "ipv6" ? `http://[${ip.item.value}]/` : `http://${ip.item.value}/`, connects: true }
  },
  run: (target) => Effect.flatMap(Blocklist, (s) => s.check(target)),
  evaluate: (c, report, previous) => evaluateBlocklist(c, report, previous)
})
