/**
 * CT history that enriches ssl_certificate: a small interface over the CT aggregator
 * (src/adapters/ct/CtAggregator.ts, `search(domain)`), connected with `CtHistory.FromAggregator`. When the
 * aggregator fails (UpstreamUnavailable) the tool still succeeds, with a note.
 * `CtHistory.Unavailable` is the source-less variant.
 */
import { Context, Effect, Layer } from "effect"
import { CtAggregator } from "./CtAggregator"
import { UpstreamUnavailable } from "../../kernel/errors"

export interface CtHistoryEntry {
  readonly id: string
  readonly issuer: string
  readonly timestamp: string
}

export interface CtHistoryShape {
  readonly search: (domain: string) => Effect.Effect<ReadonlyArray<CtHistoryEntry>, UpstreamUnavailable>
}

/** Reads issuer, timestamp and id off whatever entry shape the aggregator returns. */
export const toHistoryEntry = (e: unknown): CtHistoryEntry => {
  const o = (e ?? {}) as Record<string, unknown>
  const str = (v: unknown) => (v === undefined || v === null ? "" : String(v))
  return {
    id: str(o.id ?? o.certificateId ?? o.certificate_id),
    issuer: str(o.issuer ?? o.issuer_name ?? o.issuerName),
    timestamp: str(o.timestamp ?? o.entry_timestamp ?? o.loggedAt ?? o.not_before)
  }
}

export class CtHistory extends Context.Tag("domain-intel/McpCtHistory")<CtHistory, CtHistoryShape>() {
  /** No CT source connected: every search is UpstreamUnavailable. */
  static readonly Unavailable = Layer.succeed(this, {
    search: () => Effect.fail(new UpstreamUnavailable({ message: "no certificate transparency source is connected" }))
  })
  /** Over the service's CT aggregator (cached, deduplicated, stale on upstream failure). */
  static readonly FromAggregator = Layer.effect(
    this,
    Effect.map(CtAggregator, (ct) => ({
      search: (domain: string) => Effect.map(ct.search(domain), (xs) => xs.map(toHistoryEntry))
    }))
  )
  static readonly fromSearch = <E>(search: (domain: string) => Effect.Effect<ReadonlyArray<E>, UpstreamUnavailable>) =>
    Layer.succeed(this, { search: (domain: string) => Effect.map(search(domain), (xs) => xs.map(toHistoryEntry)) })
}
