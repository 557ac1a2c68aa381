/** Gathering names through the recursive resolvers: random labels (wildcard) and the sensitive names. */
import { Effect } from "effect"
import { addressesIn, randomLabel } from "../model/answers"
import type { ExposedName, SensitiveObservation, WildcardObservation } from "../model/observations"
import { SENSITIVE_NAMES } from "../model/sensitiveNames"
import type { Gatherer } from "./context"

export const wildcardProbe = (g: Gatherer, zone: string) =>
  Effect.gen(function*() {
    const probes = [`${randomLabel()}.${zone}`, `${randomLabel()}.${zone}`]
    const results = yield* Effect.forEach(probes, (p) =>
      Effect.all([g.resolver.query({ name: p, type: "A" }), g.resolver.query({ name: p, type: "AAAA" })], { concurrency: 2 }).pipe(
        Effect.map(([a, aaaa]) => addressesIn([...a.answers, ...aaaa.answers], p))
      ), { concurrency: 2 })
    const cname = results.find((r) => r.cname !== null)?.cname ?? null
    const ips = [...new Set(results.flatMap((r) => r.ips))].sort()
    return { probes, ips, cname_target: cname } satisfies WildcardObservation
  })

export const sensitiveProbe = (g: Gatherer, zone: string) =>
  Effect.gen(function*() {
    let errors = 0
    const found = yield* Effect.forEach(SENSITIVE_NAMES, (label) => {
      const name = `${label}.${zone}`
      return Effect.all([g.resolver.query({ name, type: "A" }), g.resolver.query({ name, type: "AAAA" })], { concurrency: 2 }).pipe(
        Effect.map(([a, aaaa]): ExposedName | null => {
          if (a.rcode !== "NOERROR" && aaaa.rcode !== "NOERROR") return null
          const x = addressesIn([...a.answers, ...aaaa.answers], name)
          if (x.ips.length === 0 && x.cname === null) return null
          const hasA = a.answers.some((r) => r.type === "A")
          return { name, ips: [...new Set(x.ips)], record_type: x.cname !== null ? "CNAME" : hasA ? "A" : "AAAA", cname_target: x.cname }
        }),
        Effect.catchAll(() => Effect.sync(() => { errors++; return null }))
      )
    }, { concurrency: 40 })
    return { probed: SENSITIVE_NAMES.length, resolved: found.filter((x): x is ExposedName => x !== null), errors } satisfies SensitiveObservation
  })
