/**
 * DNSSEC chain-of-trust validation from a trust anchor down to a zone, done here rather than
 * trusting a resolver's AD bit: every query goes to the recursive resolvers with DO and CD set,
 * and this code checks DS↔DNSKEY digests, RRSIGs in canonical form and validity windows (Clock).
 *
 * Result: `secure` (chain verified to the zone and its apex RRsets verified), `insecure` (a
 * delegation on the way is proven unsigned, or uses only unsupported algorithms), `bogus` (a
 * signature, digest or proof fails; the reason says which), or `indeterminate` (no anchor covers
 * the zone, or the data could not be fetched).
 *
 * validate.ts runs one validation: walk.ts the chain from the anchor down, apex.ts the zone's own
 * RRsets, denial.ts the NSEC/NSEC3 proofs, rrsig.ts signature and DS checks; this module loads the
 * trust anchors (built in, or DNSSEC_TRUST_ANCHORS) and provides the service.
 */
import { Context, Effect, Layer, Option } from "effect"
import { readFileSync } from "node:fs"
import { AppConfig } from "../../platform/Config"
import { DnsResolver } from "../dns/DnsResolver"
import { builtinAnchors, parseTrustAnchors } from "./anchors"
import { makeValidator, type DnssecValidatorShape } from "./validate"

export { nsec3ParamsOf, proveNoDs } from "./denial"
export { type ChainLink, type DnssecResult, type DnssecStatus, nsec3IsCompliant, type Nsec3Params, type VerifyOutcome } from "./result"
export { keysMatchingDs, rrsigsOf, verifyRRset } from "./rrsig"
export { type DnssecValidatorShape, makeValidator, type RRsetValidation } from "./validate"

export class DnssecValidator extends Context.Tag("domain-intel/DnssecValidator")<DnssecValidator, DnssecValidatorShape>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const resolver = yield* DnsResolver
      const anchors = yield* Option.match(config.dnssecTrustAnchors, {
        onNone: () => Effect.succeed(builtinAnchors),
        onSome: (file) =>
          Effect.try(() => parseTrustAnchors(readFileSync(file, "utf8"))).pipe(
            Effect.orDieWith((e) => new Error(`DNSSEC_TRUST_ANCHORS=${file}: ${String(e.error)}`))
          )
      })
      return makeValidator(anchors, resolver)
    })
  )
}
