/**
 * Enumeration over a probe (one crafted ClientHello, one parsed answer): which versions and
 * suites a server accepts, in its order; whether it has an order; its groups; its DH size.
 * Suites go in rounds that remove the suite the server chose from the next offer, so a server
 * with its own order reveals it; a server that follows the client's order shows ours.
 */
import { Effect } from "effect"
import type { HelloSpec } from "./clientHello"
import { GROUPS, type Group } from "./groups"
import { pqShare } from "./keyShares"
import type { Flight, HelloFlight } from "./serverHello"
import { suiteByCode, suitesFor, VERSION_CODE, type Suite, type Version } from "./suites"

export type ProbeResult =
  | Exclude<Flight, { readonly kind: "incomplete" }>
  | { readonly kind: "no_answer"; readonly reason: string; readonly refused: boolean }

export type Probe = (spec: HelloSpec, need: "hello" | "flight") => Effect.Effect<ProbeResult>

export interface VersionScan {
  readonly version: Version
  readonly accepted: ReadonlyArray<Suite>
  /** Every ServerHello flight this version answered, the first one read to ServerHelloDone. */
  readonly flights: ReadonlyArray<HelloFlight>
  /** What ended the first round when nothing was accepted (for the "no TLS here" answer). */
  readonly first: ProbeResult
  readonly note: string | null
}

const negotiated = (f: HelloFlight, v: Version) =>
  f.hello.version === VERSION_CODE[v] && (v === "tls1_3" || !f.hello.extensions.has(43))

export const enumerateVersion = (probe: Probe, v: Version, serverName: string | null, shares: HelloSpec["keyShares"]) =>
  Effect.gen(function*() {
    const offer = suitesFor(v).map((s) => s.code)
    const accepted: Array<Suite> = []
    const flights: Array<HelloFlight> = []
    let first: ProbeResult | null = null
    let note: string | null = null
    while (accepted.length < offer.length) {
      const taken = new Set(accepted.map((s) => s.code))
      const remaining = offer.filter((c) => !taken.has(c))
      const r = yield* probe({ version: v, suites: remaining, serverName, keyShares: shares }, flights.length === 0 ? "flight" : "hello")
      first ??= r
      if (r.kind !== "hello" || !negotiated(r, v)) break
      const suite = suiteByCode(r.hello.suite)
      if (!suite || !remaining.includes(suite.code)) {
        note = `${v}: the server chose suite 0x${r.hello.suite.toString(16).padStart(4, "0")}, which was not offered; enumeration stopped there`
        break
      }
      accepted.push(suite)
      flights.push(r)
    }
    return { version: v, accepted, flights, first: first!, note } satisfies VersionScan
  })

/** Offers the first two suites reversed: a server that keeps its pick has its own order. */
export const serverPreference = (probe: Probe, v: Version, accepted: ReadonlyArray<Suite>, serverName: string | null, shares: HelloSpec["keyShares"]) =>
  Effect.gen(function*() {
    if (accepted.length < 2) return null
    const r = yield* probe({ version: v, suites: [accepted[1].code, accepted[0].code], serverName, keyShares: shares }, "hello")
    if (r.kind !== "hello") return null
    return r.hello.suite === accepted[0].code ? true : r.hello.suite === accepted[1].code ? false : null
  })

/**
 * TLS 1.3 groups: one hello per group. A classical group goes with an empty key_share, so the
 * server names it in a HelloRetryRequest (RFC 8446 §4.1.4) or refuses; a post-quantum group goes
 * with a share of its size (keyShares.ts), as browsers offer it, and the server answers with a
 * ServerHello or a HelloRetryRequest naming it. Either names the group it accepts.
 */
export const groups13 = (probe: Probe, suites: ReadonlyArray<Suite>, serverName: string | null) =>
  Effect.forEach(GROUPS, (g) =>
    probe({ version: "tls1_3", suites: suites.map((s) => s.code), serverName, groups: [g.code], keyShares: [pqShare(g.code)].filter((s) => s !== null) }, "hello").pipe(
      Effect.map((r) => (r.kind === "hello" && r.hello.selectedGroup === g.code ? g : null))
    ), { concurrency: "unbounded" }).pipe(Effect.map((gs) => gs.filter((g): g is Group => g !== null)))

/** TLS 1.2 and older ECDHE: one hello per curve; the ServerKeyExchange names the curve used. */
export const groupsLegacy = (probe: Probe, v: Version, ecdhe: ReadonlyArray<Suite>, serverName: string | null) =>
  Effect.forEach(GROUPS.filter((g) => g.tls12), (g) =>
    probe({ version: v, suites: ecdhe.map((s) => s.code), serverName, groups: [g.code] }, "flight").pipe(
      Effect.map((r) => (r.kind === "hello" && r.keyExchange?.group === g.code ? g : null))
    ), { concurrency: "unbounded" }).pipe(Effect.map((gs) => gs.filter((g): g is Group => g !== null)))

/** The DHE prime size: one hello offering only the DHE suites the server accepted. */
export const dhBits = (probe: Probe, v: Version, dhe: ReadonlyArray<Suite>, serverName: string | null) =>
  Effect.gen(function*() {
    if (dhe.length === 0) return null
    const r = yield* probe({ version: v, suites: dhe.map((s) => s.code), serverName }, "flight")
    return r.kind === "hello" ? r.keyExchange?.dhBits ?? null : null
  })

/**
 * TLS_FALLBACK_SCSV (RFC 7507): a hello for the second-newest version the server speaks, marked
 * as a fallback; the server should refuse it with inappropriate_fallback (86).
 */
export const fallbackScsv = (probe: Probe, versions: ReadonlyArray<Version>, serverName: string | null) =>
  Effect.gen(function*() {
    const legacy = versions.filter((v) => v !== "tls1_3")
    const target = versions[0] === "tls1_3" ? legacy[0] : legacy[1]
    if (versions.length < 2 || target === undefined) return null
    const r = yield* probe({ version: target, suites: suitesFor(target).map((s) => s.code), serverName, fallbackScsv: true }, "hello")
    if (r.kind === "alert") return r.description === 86
    if (r.kind === "hello") return false
    return null
  })
