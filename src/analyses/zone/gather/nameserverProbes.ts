/** Gathering from each queried nameserver address: does it recurse for anyone, does it hand out AXFR. */
import { Effect } from "effect"
import { axfr } from "../../../adapters/dns/axfr"
import { errText } from "../model/answers"
import type { AxfrObservation, OpenResolverObservation } from "../model/observations"
import type { Gatherer, Target } from "./context"

export const recursionProbe = (g: Gatherer, ts: ReadonlyArray<Target>) =>
  Effect.forEach(ts, (t) =>
    g.limited(t, "a.root-servers.net", g.resolver.query({ name: "a.root-servers.net", type: "A", server: t.server, recursionDesired: true })).pipe(
      Effect.map((ans): OpenResolverObservation => {
        const recursive = ans.rcode === "NOERROR" && ans.flags.ra && !ans.flags.aa && ans.answers.some((a) => a.type === "A")
        const status = recursive ? "recursive_answer" : ans.rcode === "REFUSED" ? "refused" : ans.rcode !== "NOERROR" ? ans.rcode.toLowerCase() : "no_recursion"
        return { nameserver: t.nameserver, ip: t.ip, is_open_resolver: recursive, status }
      }),
      Effect.catchAll((e) => Effect.succeed<OpenResolverObservation>({ nameserver: t.nameserver, ip: t.ip, is_open_resolver: false, status: e._tag === "DnsTimeout" ? "timeout" : `error: ${errText(e)}` }))
    ), { concurrency: "unbounded" })

export const axfrProbe = (g: Gatherer, zone: string, ts: ReadonlyArray<Target>) =>
  Effect.forEach(ts, (t) =>
    g.limited(t, zone, axfr(zone, t.server, Math.max(g.timeoutMs, g.checkBudgetMs - 1000))).pipe(
      Effect.map((x): AxfrObservation => ({ nameserver: t.nameserver, ip: t.ip, allowed: true, records: x.records.length, status: "allowed" })),
      Effect.catchAll((e) => Effect.succeed<AxfrObservation>({
        nameserver: t.nameserver,
        ip: t.ip,
        allowed: false,
        records: 0,
        status: e._tag === "DnsRcode" ? `refused (${e.rcode})` : e._tag === "DnsTimeout" ? "timeout" : `refused (${errText(e)})`
      }))
    ), { concurrency: "unbounded" })
