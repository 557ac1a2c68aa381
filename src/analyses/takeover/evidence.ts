/**
 * HTTP evidence for a takeover check (docs/operations/takeover.md, "HTTP evidence"): `GET /` of
 * the name itself over the schemes its service's fingerprint names, through `HttpProbe`, so the
 * target guard judges the address and the provider sees the name in Host and SNI. Bounded as a
 * hostile server needs: one deadline per request, only the body's first BODY_PREFIX bytes read
 * (the fingerprints' texts sit at the top of the provider's page), no redirect followed (the
 * fingerprint is the provider's own answer for the name: a 301 can be the evidence itself), at
 * most `total` requests at once and `perProvider` to one service. The name's addresses are looked
 * up once for its requests (`HttpProbe.sharingLookups`, in the check's scope).
 */
import { Effect } from "effect"
import type { HttpProbeShape } from "../../adapters/probe/HttpProbe"
import { evidenceIn } from "./classify"
import type { HttpEvidence } from "./fingerprints"
import type { HttpAnswer } from "./observations"

/** Bytes of a body read for the fingerprint texts. */
export const BODY_PREFIX = 32 * 1024

export interface EvidenceOptions {
  readonly total: number
  readonly perProvider: number
  readonly timeoutMs: number
}

export const makeEvidence = (fetch: HttpProbeShape["fetch"], opts: EvidenceOptions) =>
  Effect.gen(function*() {
    const total = yield* Effect.makeSemaphore(opts.total)
    const perProvider = yield* Effect.cachedFunction((_provider: string) => Effect.makeSemaphore(opts.perProvider))

    const one = (name: string, scheme: "http" | "https", timeoutMs: number): Effect.Effect<HttpAnswer> =>
      fetch({ url: `${scheme}://${name}/`, method: "GET", timeoutMs, maxBodyBytes: BODY_PREFIX, followRedirects: false, keepBody: true, decompress: false }).pipe(
        Effect.map((o): HttpAnswer =>
          o.response !== null
            ? { status: o.response.status, bodySnippet: o.response.body.subarray(0, BODY_PREFIX).toString("utf8") }
            : { error: o.error === null ? "no answer" : `${o.error.kind}: ${o.error.message}` }),
        // The guard refused the name's address (a private or metadata address): never asked.
        Effect.catchAll((e) => Effect.succeed<HttpAnswer>({ error: `refused by the target guard: ${e.message}` }))
      )

    /**
     * The answers of `name` over `schemes`, in the fingerprint's order, each holding a slot of its
     * service and one of the check's. A scheme is asked only while no earlier one answered with
     * the fingerprint's evidence: what decides the name is then known (the classifier takes the
     * first answer that is the evidence), and an unclaimed name, the common case here, costs one
     * request.
     */
    const answers = (name: string, provider: string, ev: HttpEvidence, timeoutMs: number) =>
      Effect.flatMap(perProvider(provider), (slot) =>
        Effect.reduce(ev.schemes, {} as { http?: HttpAnswer; https?: HttpAnswer }, (got, scheme) =>
          Object.values(got).some((a) => a !== undefined && evidenceIn(a, ev) !== null)
            ? Effect.succeed(got)
            : Effect.map(slot.withPermits(1)(total.withPermits(1)(one(name, scheme, timeoutMs))), (a) => ({ ...got, [scheme]: a }))))

    return { answers }
  })
