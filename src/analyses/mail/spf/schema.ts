/**
 * The SPF contracts: the result of one check_host() evaluation (RFC 7208 §2.6) and the `spf`
 * field of the Email Security report (docs/operations/email-security.md, "SPF").
 */
import { Schema } from "effect"

export const SpfResult = Schema.Literal("pass", "fail", "softfail", "neutral", "none", "permerror", "temperror")
export type SpfResult = typeof SpfResult.Type

export const SpfCheck = Schema.Struct({
  result: SpfResult,
  /** The exp= text (§6.2), only for "fail" and only when it could be fetched and expanded. */
  explanation: Schema.optional(Schema.String),
  /** The term that decided the result, as written in the record that matched. */
  mechanism: Schema.optional(Schema.String),
  /** Why the result is permerror/temperror, for people (not part of RFC 7208). */
  reason: Schema.optional(Schema.String),
  /** DNS-querying terms evaluated (§4.6.4, limit 10). */
  lookups: Schema.Number,
  /** Terms whose lookup returned NXDOMAIN or no answers (§4.6.4, limit 2). */
  voidLookups: Schema.Number
})
export type SpfCheck = typeof SpfCheck.Type

export const SpfAll = Schema.Literal("pass", "fail", "softfail", "neutral")

export const SpfReport = Schema.Struct({
  /** The domain's SPF record; null when it has none (or the lookup failed: see errors). */
  record: Schema.NullOr(Schema.String),
  /** A record exists and no permerror condition was found anywhere in its tree. */
  valid: Schema.Boolean,
  /** Qualifier of the `all` that ends evaluation, followed through redirect=; null when none. */
  all: Schema.NullOr(SpfAll),
  /** DNS-querying terms through every include and redirect (RFC 7208 §4.6.4, limit 10). */
  lookups: Schema.Number,
  /** Terms whose lookup returned NXDOMAIN or no answer (limit 2). */
  void_lookups: Schema.Number,
  /** Every domain reached through include: or redirect=, nested ones too, once each, in record order. */
  includes: Schema.Array(Schema.String),
  errors: Schema.Array(Schema.String)
})
export type SpfReport = typeof SpfReport.Type
