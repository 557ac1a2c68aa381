/** Gathering SOA answers: every authoritative address and every recursive resolver, and the apex SOA. */
import { Effect } from "effect"
import { errText, soaOf } from "../model/answers"
import type { Incomplete, SoaObservation } from "../model/observations"
import type { Gatherer, Target } from "./context"

export const soaAnswers = (g: Gatherer, zone: string, ts: ReadonlyArray<Target>) =>
  Effect.gen(function*() {
    const auth = Effect.forEach(ts, (t) =>
      g.limited(t, zone, g.resolver.query({ name: zone, type: "SOA", server: t.server, recursionDesired: false })).pipe(
        Effect.map((ans): SoaObservation => {
          const soa = ans.rcode === "NOERROR" ? soaOf(ans, zone) : null
          return { kind: "authoritative", nameserver: t.nameserver, ip: t.ip, port: g.authPort, soa, authoritative: ans.flags.aa, error: soa ? null : ans.rcode !== "NOERROR" ? ans.rcode : "no SOA in the answer" }
        }),
        Effect.catchAll((e) => Effect.succeed<SoaObservation>({ kind: "authoritative", nameserver: t.nameserver, ip: t.ip, port: g.authPort, soa: null, authoritative: false, error: errText(e) }))
      ), { concurrency: "unbounded" })
    const rec = Effect.forEach(g.recursive, (r) =>
      g.resolver.query({ name: zone, type: "SOA", server: r }).pipe(
        Effect.map((ans): SoaObservation => {
          const soa = ans.rcode === "NOERROR" ? soaOf(ans, zone) : null
          return { kind: "recursive", nameserver: null, ip: r.host, port: r.port, soa, authoritative: false, error: soa ? null : ans.rcode !== "NOERROR" ? ans.rcode : "no SOA in the answer" }
        }),
        Effect.catchAll((e) => Effect.succeed<SoaObservation>({ kind: "recursive", nameserver: null, ip: r.host, port: r.port, soa: null, authoritative: false, error: errText(e) }))
      ), { concurrency: "unbounded" })
    const [a, b] = yield* Effect.all([auth, rec], { concurrency: 2 })
    return [...a, ...b]
  })

export const apexSoa = (g: Gatherer, zone: string) =>
  g.resolver.query({ name: zone, type: "SOA" }).pipe(
    Effect.catchAll((e) => Effect.fail<Incomplete>({ incomplete: `SOA lookup failed: ${errText(e)}` })),
    Effect.flatMap((ans) => {
      const soa = soaOf(ans, zone)
      return soa ? Effect.succeed(soa) : Effect.fail<Incomplete>({ incomplete: `no SOA for ${zone} (${ans.rcode})` })
    })
  )
