/**
 * Per-vendor precision and recall of domain-intel (one passive request) and `wafw00f -a`
 * (Debian's 2.2) over the WAF replica corpus (test/waf/replicas.ts) in one run. Both tools are
 * pointed only at the loopback replica server.
 *
 * For vendor V: a true positive is a case that shows V (the replica's provider, or a layer of a
 * layered case) where the tool names V; a false negative one where it does not; a false positive
 * a case that does not show V (nor lists it as also present) where the tool names V. domain-intel
 * "names" a vendor when it lists it in providers, as a WAF or as a delivery layer.
 *
 * The WAF verdict is scored apart: a case has a WAF when its provider is a WAF (or a delivery
 * layer seen refusing), none for clean pages and for CDNs, hosts and load balancers seen without a
 * block. domain-intel's verdict is provider_present; wafw00f's is naming anything at all (it
 * reports every match as a WAF).
 */
import { existsSync } from "node:fs"
import { PROVIDERS } from "../../src/analyses/waf/signatures"
import { startService } from "../../test/support/service"
import { startReplicaServer } from "../../test/waf/replicaServer"
import { LAYERED, REPLICAS } from "../../test/waf/replicas"
import { WAFW00F_NAMES } from "./wafw00f-names"

export const WAFW00F = "/usr/bin/wafw00f"

interface Case {
  readonly id: string
  readonly shows: ReadonlyArray<string>
  readonly allowed: ReadonlyArray<string>
  /** The case has a WAF (the first of `shows`); false for clean pages and delivery layers seen without a block. */
  readonly waf: boolean
}

const cases: ReadonlyArray<Case> = [
  ...REPLICAS.map((r) => ({ id: r.id, shows: r.expect === null ? [] : [r.expect], allowed: r.alsoReported ?? [], waf: r.expect !== null && r.expectRole === undefined })),
  ...LAYERED.map((l) => ({ id: l.id, shows: [...l.chain, ...l.layers], allowed: [], waf: l.chain.length > 0 }))
]

/** wafw00f -a output → the names it reported ("Name (Vendor)") and whether generic detection fired. */
export const parseWafw00f = (out: string) => {
  const plain = out.replace(/\x1b\[[0-9;]*m/g, "")
  const named = plain.match(/is behind (.+?) WAF\.?\s*$/m)?.[1]
  const names = named ? named.split(/ and\/or /).map((s) => s.trim()) : []
  const generic = /seems to be behind a WAF or some sort of security solution/.test(plain)
  return { names, generic }
}

const mapWafw00f = (names: ReadonlyArray<string>) => {
  const ours = new Set<string>()
  let unmapped = 0
  for (const n of names) {
    const hit = Object.entries(WAFW00F_NAMES).filter(([, re]) => re.test(n)).map(([k]) => k)
    if (hit.length === 0) unmapped++
    for (const h of hit) ours.add(h)
  }
  return { ours, unmapped }
}

const runWafw00f = async (url: string) => {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`wafw00f may only be pointed at loopback: ${url}`)
  const proc = Bun.spawn([WAFW00F, "-a", url], { stdout: "pipe", stderr: "pipe" })
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  await proc.exited
  return parseWafw00f(out + err)
}

interface Tally { tp: number; fp: number; fn: number }
const ratio = (a: number, b: number) => (b === 0 ? null : a / b)
const fmt = (x: number | null) => (x === null ? "–" : x.toFixed(2))

export interface AccuracyResult {
  readonly lines: ReadonlyArray<string>
  readonly markdown: string
  readonly summary: string
}

export const runAccuracy = async (opts: { readonly concurrency?: number; readonly log?: (s: string) => void } = {}): Promise<AccuracyResult> => {
  if (!existsSync(WAFW00F)) throw new Error("wafw00f not found at /usr/bin/wafw00f (Debian package wafw00f)")
  const server = startReplicaServer()
  const svc = await startService()
  const { key } = await svc.newKey("developer")
  const vendors = PROVIDERS.map((p) => p.name)
  const ours: Record<string, Tally> = {}
  const peer: Record<string, Tally> = {}
  for (const v of vendors) { ours[v] = { tp: 0, fp: 0, fn: 0 }; peer[v] = { tp: 0, fp: 0, fn: 0 } }
  let oursFound = 0, peerFound = 0, oursPrimary = 0, peerPrimary = 0, providerCases = 0
  let oursCleanFp = 0, peerCleanFp = 0, cleanCases = 0, peerUnmapped = 0
  let noWafCases = 0, oursWafClaims = 0, peerWafClaims = 0, wafCases = 0, oursWafFound = 0, peerWafFound = 0
  let oursMs = 0, peerMs = 0
  const url = (id: string) => `http://127.0.0.1:${server.port}/r/${id}`
  // wafw00f takes about half a second per target: run a few at once.
  const peerResults = new Map<string, { ours: Set<string>; unmapped: number; generic: boolean; first: string | null }>()
  const queue = [...cases]
  const t0 = performance.now()
  await Promise.all(Array.from({ length: opts.concurrency ?? 3 }, async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const r = await runWafw00f(url(c.id))
      const m = mapWafw00f(r.names)
      const first = r.names[0] ? [...mapWafw00f([r.names[0]]).ours][0] ?? null : null
      peerResults.set(c.id, { ...m, generic: r.generic, first })
    }
  }))
  peerMs = performance.now() - t0
  const lines: Array<string> = []
  for (const c of cases) {
    const t = performance.now()
    const body = (await (await svc.call(`/v1/domain/waf?domain=${encodeURIComponent(url(c.id))}`, { key })).json()) as any
    oursMs += performance.now() - t
    const oursSet = new Set<string>(body.providers.map((p: any) => p.name))
    const p = peerResults.get(c.id)!
    peerUnmapped += p.unmapped
    for (const [set, tally] of [[oursSet, ours], [p.ours, peer]] as const) {
      for (const v of vendors) {
        const shown = c.shows.includes(v)
        if (shown && set.has(v)) tally[v].tp++
        else if (shown) tally[v].fn++
        else if (set.has(v) && !c.allowed.includes(v)) tally[v].fp++
      }
    }
    const peerClaims = p.ours.size > 0 || p.unmapped > 0 || p.generic
    if (c.waf) {
      wafCases++
      if (body.provider_present) oursWafFound++
      if (peerClaims) peerWafFound++
    } else {
      noWafCases++
      if (body.provider_present) oursWafClaims++
      if (peerClaims) peerWafClaims++
    }
    if (c.shows.length === 0) {
      cleanCases++
      if (oursSet.size > 0) oursCleanFp++
      if (peerClaims) peerCleanFp++
    } else {
      providerCases++
      if (c.shows.every((v) => oursSet.has(v))) oursFound++
      if (c.shows.every((v) => p.ours.has(v))) peerFound++
      if (c.waf && body.primaryProvider === c.shows[0]) oursPrimary++
      if (c.waf && p.first === c.shows[0]) peerPrimary++
    }
    const line = `${c.id.padEnd(34)} shows ${(c.shows.join(" + ") || "nothing").padEnd(44)} domain-intel ${[...oursSet].join(", ") || "-"} | wafw00f ${[...p.ours].join(", ") || (p.unmapped ? "(unmapped name)" : p.generic ? "(generic)" : "-")}`
    lines.push(line)
    opts.log?.(line)
  }
  await svc.stop()
  server.stop(true)

  const rows = vendors.map((v) => {
    const o = ours[v], w = peer[v]
    return { v, n: o.tp + o.fn, op: ratio(o.tp, o.tp + o.fp), or: ratio(o.tp, o.tp + o.fn), wp: ratio(w.tp, w.tp + w.fp), wr: ratio(w.tp, w.tp + w.fn), known: v in WAFW00F_NAMES }
  })
  const mean = (xs: ReadonlyArray<number | null>) => { const ys = xs.map((x) => x ?? 0); return ys.reduce((a, b) => a + b, 0) / ys.length }
  const perfect = (p: number | null, r: number | null) => p === 1 && r === 1
  const markdown = [
    "| Vendor | Cases | domain-intel precision | domain-intel recall | wafw00f 2.2 precision | wafw00f 2.2 recall |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.v} | ${r.n} | ${fmt(r.op)} | ${fmt(r.or)} | ${fmt(r.wp)} | ${fmt(r.wr)}${r.known ? "" : " (unknown to wafw00f)"} |`)
  ].join("\n")
  const summary = [
    `WAF replica corpus: ${cases.length} cases (${providerCases} with providers over ${vendors.length} vendors, ${cleanCases} plain origins and vendor-mention pages)`,
    `WAF verdict: ${wafCases} cases with a WAF, ${noWafCases} without (${cleanCases} clean pages, ${noWafCases - cleanCases} CDNs, hosts and load balancers seen without a block)`,
    `domain-intel: WAF found in ${oursWafFound}/${wafCases}, WAF claimed on ${oursWafClaims}/${noWafCases} cases without one; every shown provider named in ${oursFound}/${providerCases} cases, primaryProvider right in ${oursPrimary}/${wafCases} WAF cases, anything listed on ${oursCleanFp}/${cleanCases} clean pages; vendors with precision and recall 1.00: ${rows.filter((r) => perfect(r.op, r.or)).length}/${vendors.length}; macro recall ${mean(rows.map((r) => r.or)).toFixed(3)}; ${(oursMs / cases.length).toFixed(1)} ms per case`,
    `wafw00f 2.2 -a: WAF found in ${peerWafFound}/${wafCases}, WAF claimed on ${peerWafClaims}/${noWafCases} cases without one; every shown provider named in ${peerFound}/${providerCases} cases, first name right in ${peerPrimary}/${wafCases} WAF cases, anything named on ${peerCleanFp}/${cleanCases} clean pages; vendors with precision and recall 1.00: ${rows.filter((r) => perfect(r.wp, r.wr)).length}/${vendors.length} (${Object.keys(WAFW00F_NAMES).length} of the vendors have a wafw00f 2.2 plugin); macro recall ${mean(rows.map((r) => r.wr)).toFixed(3)}; names outside our table ${peerUnmapped}; ${(peerMs / cases.length).toFixed(0)} ms per case (wall, ${opts.concurrency ?? 3} at once)`
  ].join("\n")
  return { lines, markdown, summary }
}
