/**
 * A domain's SPF posture without a client address: the record, whether evaluation could end in
 * permerror anywhere in its tree, the final `all`, and the RFC 7208 §4.6.4 counts for the worst
 * case (no mechanism matching, so every reachable term is evaluated). The tree is fetched one
 * level at a time, each level's queries together: include/redirect targets of level k and the
 * a/mx/exists checks of level k-1 share one round trip, so a chain of n includes costs n + 2
 * round trips, not one per name. The walk stops descending once more than 10 lookups are
 * counted (evaluation would be a permerror by then), never follows a loop, and checks at most
 * MAX_CHECKED a/mx/exists targets, so a hostile fan-out or loop ends after a few rounds.
 */
import { Effect, Either } from "effect"
import { recordsOf, type SpfDns, type SpfLookup, type SpfMx, type SpfTempError } from "./dns"
import { expand, hasMacros, type MacroString, queryName } from "./macro"
import { isSpfRecord, parseRecord, QUALIFIER_RESULT, type Qualifier, queriesDns, type SpfRecord } from "./parse"
import type { SpfReport } from "./schema"

const MAX_LOOKUPS = 10
const MAX_VOID = 2
const MAX_MX = 10
/** a/mx/exists targets checked for void answers per report (each costs one or two queries). */
const MAX_CHECKED = 20

interface Node {
  readonly domain: string
  /** The term that led here ("include:x", "redirect=x"); null for the queried domain. */
  readonly via: string | null
  readonly path: ReadonlyArray<string>
  record: SpfRecord | null
  all: Qualifier | null
  readonly children: Array<Node>
  redirect: Node | null
}

type Answer = Either.Either<SpfLookup<string | SpfMx>, SpfTempError>
interface Check {
  readonly kind: "a" | "mx" | "exists"
  readonly name: string
  readonly term: string
}

const normal = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Only %{d} is known without a client; a target needing other macros is not followed. */
const staticTarget = (ms: MacroString | null, domain: string): string | null => {
  if (ms === null) return domain
  if (ms.some((t) => t._tag === "Macro" && t.letter !== "d")) return null
  const name = queryName(hasMacros(ms) ? expand(ms, { d: domain }) : expand(ms, {}))
  return name === null ? null : normal(name)
}

export const spfPosture = (dns: SpfDns, domain: string): Effect.Effect<SpfReport> =>
  Effect.gen(function*() {
    const answers = new Map<string, Answer>()
    const errors: Array<string> = []
    let permerror = false
    let lookups = 0
    let voids = 0
    let checked = 0
    const problem = (message: string) => {
      errors.push(message)
      permerror = true
    }
    const ask = (type: "TXT" | "A" | "AAAA" | "MX", name: string) => `${type} ${name}`
    /** One round trip: every query not yet answered, concurrently. */
    const round = (keys: ReadonlyArray<string>) =>
      Effect.all(
        [...new Set(keys)].filter((k) => !answers.has(k)).map((key) => {
          const cut = key.indexOf(" ")
          const [type, name] = [key.slice(0, cut), key.slice(cut + 1)]
          const q = type === "TXT" ? dns.txt(name) : type === "A" ? dns.a(name) : type === "AAAA" ? dns.aaaa(name) : dns.mx(name)
          return Effect.either(q as Effect.Effect<SpfLookup<string | SpfMx>, SpfTempError>).pipe(
            Effect.tap((a) => answers.set(key, a))
          )
        }),
        { concurrency: "unbounded", discard: true }
      )
    const checkKeys = (c: Check) =>
      c.kind === "a" ? [ask("A", c.name), ask("AAAA", c.name)] : [ask(c.kind === "mx" ? "MX" : "A", c.name)]

    const root: Node = { domain: normal(domain), via: null, path: [normal(domain)], record: null, all: null, children: [], redirect: null }
    let rootText: string | null = null

    /** Reads a fetched node's record, counts its reachable terms, returns its children and checks. */
    const visit = (node: Node): { children: Array<Node>; checks: Array<Check> } => {
      const none = { children: [], checks: [] }
      const prefix = node.via === null ? "" : `${node.domain}: `
      const answer = answers.get(ask("TXT", node.domain))!
      if (Either.isLeft(answer)) {
        errors.push(`${prefix}DNS error looking up the SPF record (${answer.left.reason})`)
        return none
      }
      const spf = (recordsOf(answer.right) as ReadonlyArray<string>).filter(isSpfRecord)
      if (spf.length === 0) {
        if (node.via !== null) {
          if (answer.right._tag === "Void") voids++
          problem(`${node.via} has no SPF record`)
        }
        return none
      }
      if (node.via === null) rootText = spf[0]
      if (spf.length > 1) {
        problem(`${prefix}${spf.length} SPF records`)
        return none
      }
      const parsed = parseRecord(spf[0])
      if (!parsed.ok) {
        problem(`${prefix}syntax error: ${parsed.error}`)
        return none
      }
      node.record = parsed.value
      const children: Array<Node> = []
      const checks: Array<Check> = []
      const child = (name: string, via: string): Node | null => {
        if (node.path.includes(name)) {
          problem(`include loop: ${[...node.path, name].join(" -> ")}`)
          return null
        }
        const n: Node = { domain: name, via, path: [...node.path, name], record: null, all: null, children: [], redirect: null }
        node.children.push(n)
        children.push(n)
        return n
      }
      for (const d of parsed.value.directives) {
        const m = d.mechanism
        // Evaluation ends at `all` (RFC 7208 §5.1): later terms are never reached.
        if (m.kind === "all") {
          node.all = d.qualifier
          break
        }
        if (queriesDns(m)) lookups++
        if (m.kind === "include") {
          const name = staticTarget(m.domain, node.domain)
          if (name !== null) child(name, `include:${name}`)
        } else if (m.kind === "a" || m.kind === "mx" || m.kind === "exists") {
          const name = staticTarget(m.domain, node.domain)
          if (name !== null && checked < MAX_CHECKED) {
            checked++
            checks.push({ kind: m.kind, name, term: d.text })
          }
        }
      }
      // §6.1: redirect= is ignored when the record has an `all`.
      const redirect = parsed.value.redirect
      if (redirect !== null && node.all === null) {
        lookups++
        const name = staticTarget(redirect.domain, node.domain)
        if (name !== null) node.redirect = child(name, `redirect=${name}`)
      }
      return { children, checks }
    }

    const tally = (c: Check) => {
      const answer = (type: "A" | "AAAA" | "MX") => answers.get(ask(type, c.name))
      const isVoid = (a: Answer | undefined) => a !== undefined && Either.isRight(a) && a.right._tag === "Void"
      if (c.kind === "a" ? isVoid(answer("A")) && isVoid(answer("AAAA")) : isVoid(answer(c.kind === "mx" ? "MX" : "A"))) voids++
      const mx = c.kind === "mx" ? answer("MX") : undefined
      if (mx !== undefined && Either.isRight(mx) && recordsOf(mx.right).length > MAX_MX) {
        problem(`${c.term}: ${recordsOf(mx.right).length} MX records (more than ${MAX_MX})`)
      }
    }

    let level: Array<Node> = [root]
    let pending: Array<Check> = []
    let truncated = false
    while (level.length > 0 || pending.length > 0) {
      yield* round([...level.map((n) => ask("TXT", n.domain)), ...pending.flatMap(checkKeys)])
      pending.forEach(tally)
      const visited = level.map(visit)
      level = visited.flatMap((v) => v.children)
      pending = visited.flatMap((v) => v.checks)
      if (lookups > MAX_LOOKUPS && level.length > 0) {
        truncated = true
        level = []
      }
    }

    if (lookups > MAX_LOOKUPS) problem(`more than ${MAX_LOOKUPS} DNS lookups (${truncated ? "at least " : ""}${lookups})`)
    if (voids > MAX_VOID) problem(`void lookups ${voids} > ${MAX_VOID}`)
    const allOf = (n: Node | null): Qualifier | null => (n === null || n.record === null ? null : (n.all ?? allOf(n.redirect)))
    const all = allOf(root)
    const includes: Array<string> = []
    const collect = (n: Node): void =>
      n.children.forEach((c) => {
        if (!includes.includes(c.domain)) includes.push(c.domain)
        collect(c)
      })
    collect(root)
    return {
      record: rootText,
      valid: rootText !== null && !permerror,
      all: all === null ? null : QUALIFIER_RESULT[all],
      lookups,
      void_lookups: voids,
      includes,
      errors
    }
  })
