/**
 * The lookalikes lab: the DNS lab (NSD zones under a private root, Unbound in front:
 * test/dns/lab.ts) holding `acmeshop.lab` and registered permutations of it, one per planted
 * case, and the web servers of their addresses (port 80 of lab addresses, as dnstwist fetches
 * `http://name/`). Beside the lab resolver's own port, a forwarder on port 53 of a lab address,
 * for dnstwist (its `--nameservers` takes addresses only, and its page fetches resolve through
 * the system's resolver: it runs in a mount namespace whose /etc/resolv.conf names that address).
 *
 * The planted cases (`PLANTED`): copies of the page (one behind a meta-refresh stub), an edited
 * copy, another page, a redirect to the domain's own site, an address that serves nothing, only
 * NS, only MX, only AAAA, only a null MX, and hostile sites (slow, a redirect loop, an endless
 * body). One permutation's zone cannot be loaded (its servers answer SERVFAIL): neither
 * registered nor free.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { startDelayProxy, type DelayProxy } from "../../../bench/dns/delayProxy"
import { permutations } from "../../../src/analyses/lookalikes/permutations"
import { startLab, type Lab, type ZoneSpec } from "../../dns/lab"
import { tempDir } from "../../support/tmp"

const page = (name: string) => readFileSync(join(import.meta.dir, "pages", name), "utf8")
export const BANK = page("bank.html")
export const RECIPES = page("recipes.html")
/** A phishing copy: every link and the form sent to the copier's host, reflowed, the title changed. */
export const PHISH = BANK.replaceAll("https://secure.northwind-bank.example/login", "https://collect.example.net/p.php")
  .replaceAll("href=\"/", "href=\"https://northwind-bank.example/")
  .replaceAll("src=\"/", "src=\"https://northwind-bank.example/")
  .replace(/\n\s+/g, "\n")
  .replace("Online Banking, Savings and Loans", "Secure Online Banking Login")
/** A copy with a few sentences edited. */
export const EDITED = BANK.replace("No monthly fee when you pay in at least 500 each month.", "No monthly fee.")
  .replace("seven days a week", "every day")
  .replace("Earn cashback on everyday spending", "Earn rewards on spending")

export const DOMAIN = "acmeshop.lab"

export type Web = "bank" | "phish" | "stub" | "edited" | "recipes" | "toOwn" | "slow" | "loop" | "endless" | "none"

export interface Planted {
  readonly domain: string
  readonly fuzzer: string
  readonly a?: number
  /** An AAAA record: the IPv4-mapped form of a lab address where nothing listens (a page fetch stays on loopback). */
  readonly aaaa?: "mapped"
  readonly mx?: "mail" | "null"
  /** A zone of its own (NS); false: a name inside another zone (no NS of its own). */
  readonly zone: boolean
  readonly web: Web
  readonly risk: "high" | "medium" | "low"
  readonly similarity: "copy" | "low" | null
}

/** The registered permutations of acmeshop.lab; `a` is the last octet of the lab address serving it. */
export const PLANTED: ReadonlyArray<Planted> = [
  { domain: "xn--80akujkc6ly7a.lab", fuzzer: "cyrillic", a: 11, zone: true, web: "phish", risk: "high", similarity: "copy" },
  { domain: "acrneshop.lab", fuzzer: "homoglyph", a: 12, zone: true, web: "stub", risk: "high", similarity: "copy" },
  { domain: "acme-shop.lab", fuzzer: "hyphenation", a: 13, zone: true, web: "edited", risk: "high", similarity: "copy" },
  { domain: "acmeshops.lab", fuzzer: "addition", a: 14, mx: "mail", zone: true, web: "recipes", risk: "high", similarity: "low" },
  { domain: "acmeshp.lab", fuzzer: "omission", a: 15, zone: true, web: "recipes", risk: "medium", similarity: "low" },
  { domain: "acmeshap.lab", fuzzer: "vowel-swap", a: 16, zone: true, web: "toOwn", risk: "medium", similarity: null },
  { domain: "acmeshpo.lab", fuzzer: "transposition", a: 17, zone: true, web: "none", risk: "low", similarity: null },
  { domain: "acmeshoop.lab", fuzzer: "repetition", zone: true, web: "none", risk: "low", similarity: null },
  { domain: "acmes.hop.lab", fuzzer: "subdomain", mx: "mail", zone: false, web: "none", risk: "high", similarity: null },
  { domain: "acme.shop.lab", fuzzer: "subdomain", aaaa: "mapped", zone: false, web: "none", risk: "low", similarity: null },
  { domain: "acmesbop.lab", fuzzer: "replacement", mx: "null", zone: true, web: "none", risk: "low", similarity: null },
  { domain: "acmeshiop.lab", fuzzer: "insertion", a: 18, zone: true, web: "slow", risk: "low", similarity: null },
  { domain: "acmeshoq.lab", fuzzer: "bitsquatting", a: 19, zone: true, web: "loop", risk: "low", similarity: null },
  { domain: "acmeshoplab.lab", fuzzer: "various", a: 20, zone: true, web: "endless", risk: "medium", similarity: "low" }
]

/** A domain with no address of its own, its site at www; and a lookalike of it that copies that site. */
export const WWW_ONLY = "northwind.lab"
export const WWW_ONLY_LOOKALIKE = "northvvind.lab"

/** A permutation whose zone its servers cannot load (SERVFAIL): neither registered nor free. */
export const BROKEN = "acneshop.lab"
/** With `lame: true`, a permutation delegated to an address where no server answers (its lookups time out). */
export const LAME = "acmesho.lab"
/** Last octet of the domain's own web address. */
const OWN = 10

export interface LookalikeLab {
  readonly lab: Lab
  readonly n: number
  readonly addr: (h: number) => string
  /** The resolver the service asks ("ip:port"). */
  readonly resolver: string
  /** The port-53 forwarder dnstwist asks. */
  readonly resolver53: string
  /** Requests each web address received, by last octet. */
  readonly hits: Map<number, number>
  readonly stop: () => Promise<void>
}

const zones = (n: number, lame: boolean, more: ReadonlyArray<Planted>): ReadonlyArray<ZoneSpec> => {
  const a = (h: number) => `127.53.${n}.${h}`
  const ns = [a(1)]
  const zone = (name: string, records: ReadonlyArray<string>): ZoneSpec => ({ name, ns, caa: false, records })
  const own = (p: Planted) => [
    ...(p.a !== undefined ? [`@ A ${a(p.a)}`] : []),
    ...(p.aaaa !== undefined ? [`@ AAAA ::ffff:${a(22)}`] : []),
    ...(p.mx === "mail" ? ["@ MX 10 mx", `mx A ${a(99)}`] : p.mx === "null" ? ["@ MX 0 ."] : [])
  ]
  // Names inside another zone: their records under that zone's apex.
  const inner = (zoneName: string) =>
    PLANTED.filter((p) => !p.zone && p.domain.endsWith(`.${zoneName}`)).flatMap((p) => {
      const label = p.domain.slice(0, -zoneName.length - 1)
      return own(p).map((r) => r.replace(/^@ MX 10 mx$/, `${label} MX 10 mx.${label}`).replace(/^@/, label).replace(/^mx A/, `mx.${label} A`))
    })
  return [
    zone(DOMAIN, [`@ A ${a(OWN)}`, "@ MX 10 mx", `mx A ${a(99)}`, `www A ${a(OWN)}`]),
    ...[...PLANTED, ...more].filter((p) => p.zone).map((p) => zone(p.domain, own(p))),
    // A second domain whose site is only at www, and a homoglyph of it serving the phishing copy.
    zone(WWW_ONLY, [`www A ${a(OWN)}`]),
    zone(WWW_ONLY_LOOKALIKE, [`@ A ${a(11)}`]),
    zone("hop.lab", inner("hop.lab")),
    zone("shop.lab", inner("shop.lab")),
    // Loaded by nothing (the lab applies `tamper` to a signed zone): its servers answer SERVFAIL.
    { name: BROKEN, ns, caa: false, algorithm: "ECDSAP256SHA256", records: [`@ A ${a(21)}`], tamper: () => "this is not a zone file\n" },
    ...(lame ? [{ name: LAME, ns: [a(9)], caa: false, records: [`@ A ${a(23)}`] }] : [])
  ]
}

const benign = (web: Web): Web => (web === "slow" || web === "endless" ? "recipes" : web === "loop" ? "none" : web)

/** What each web address answers. */
const site = (web: Web, hosts: Record<number, string>) => async (req: Request): Promise<Response> => {
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } })
  const path = new URL(req.url).pathname
  switch (web) {
    case "bank": return html(BANK)
    case "phish": return html(PHISH)
    case "stub":
      return path === "/real"
        ? html(PHISH)
        : html(`<html><head><meta http-equiv="refresh" content="0; url=http://${hosts[12]}/real"></head><body>Loading…</body></html>`)
    case "edited": return html(EDITED)
    case "recipes": return html(RECIPES)
    case "toOwn": return new Response(null, { status: 301, headers: { location: `http://${DOMAIN}/` } })
    case "slow":
      await Bun.sleep(60_000)
      return html(BANK)
    case "loop": return new Response(null, { status: 302, headers: { location: `http://${hosts[19]}/again${Math.random()}` } })
    case "endless":
      return new Response(new ReadableStream({
        pull: async (c) => {
          c.enqueue(new TextEncoder().encode(`<p>${"lorem ipsum dolor sit amet ".repeat(400)}</p>\n`))
          await Bun.sleep(1)
        }
      }), { headers: { "content-type": "text/html" } })
    case "none": return new Response("", { status: 404 })
  }
}

/**
 * `hostile: false` (the benchmark's world) serves ordinary answers where the hostile sites are
 * (the slow and endless ones a page, the loop nothing): dnstwist's page fetch has no bound on a
 * body (an endless one holds it forever) and a slow site would time both tools' waits, not their work.
 */
export interface LabOptions {
  /** 127.53.n.x (default random). */
  readonly n?: number
  /** Serve hostile sites (default true). */
  readonly hostile?: boolean
  /** Add the lame delegation LAME. */
  readonly lame?: boolean
  /** Start the port-53 forwarder in this process (default true); a benchmark runs its own in another process. */
  readonly forwarder?: boolean
  /**
   * Register this many more permutations (the benchmark's world): each its own zone with an
   * address whose site serves, in turn, a copy of the page, another page or nothing, every third
   * with an MX too.
   */
  readonly more?: number
}

/** The extra registered permutations of `more` (deterministic: spread over the fuzzers' output). */
export const morePlanted = (count: number): ReadonlyArray<Planted> => {
  if (count === 0) return []
  const taken = new Set([DOMAIN, BROKEN, LAME, ...PLANTED.map((p) => p.domain)])
  const all = permutations(DOMAIN)!.permutations.filter((p) => !taken.has(p.domain) && p.domain.split(".").length === 2 && p.domain.endsWith(".lab"))
  const step = Math.max(1, Math.floor(all.length / count))
  const webs: ReadonlyArray<Web> = ["phish", "recipes", "none"]
  return Array.from({ length: Math.min(count, all.length) }, (_, i): Planted => {
    const p = all[i * step]
    const web = webs[i % 3]
    const mail = i % 3 === 0
    return {
      domain: p.domain, fuzzer: p.fuzzer, a: 100 + i, zone: true, web, ...(mail ? { mx: "mail" as const } : {}),
      risk: mail || web === "phish" ? "high" : web === "recipes" ? "medium" : "low",
      similarity: web === "phish" ? "copy" : web === "recipes" ? "low" : null
    }
  })
}

export const startLookalikeLab = async (opts: LabOptions = {}): Promise<LookalikeLab> => {
  const n = opts.n ?? 1 + Math.floor(Math.random() * 250)
  const addr = (h: number) => `127.53.${n}.${h}`
  const more = morePlanted(opts.more ?? 0)
  const lab = await startLab({ n, zones: zones(n, opts.lame === true, more) })
  const forwarder: DelayProxy | null = opts.forwarder === false ? null : await startDelayProxy({ host: addr(54), port: 53 }, { host: addr(53), port: lab.port }, 0)
  const hits = new Map<number, number>()
  const hosts: Record<number, string> = Object.fromEntries(PLANTED.filter((p) => p.a !== undefined).map((p) => [p.a!, p.domain]))
  const servers = [
    [OWN, "bank" as Web] as const,
    ...[...PLANTED, ...more].filter((p) => p.a !== undefined && p.web !== "none").map((p) => [p.a!, opts.hostile === false ? benign(p.web) : p.web] as const)
  ].map(([h, web]) => {
    const handler = site(web, hosts)
    return Bun.serve({
      hostname: addr(h),
      port: 80,
      idleTimeout: 120,
      fetch: (req) => {
        hits.set(h, (hits.get(h) ?? 0) + 1)
        return handler(req)
      }
    })
  })
  return {
    lab,
    n,
    addr,
    resolver: lab.resolver,
    resolver53: addr(54),
    hits,
    stop: async () => {
      for (const s of servers) s.stop(true)
      await forwarder?.close()
      await lab.stop()
    }
  }
}

export interface DnstwistRow {
  readonly fuzzer: string
  readonly domain: string
  readonly dns_a?: ReadonlyArray<string>
  readonly dns_aaaa?: ReadonlyArray<string>
  readonly dns_mx?: ReadonlyArray<string>
  readonly dns_ns?: ReadonlyArray<string>
  readonly ssdeep?: number
}

/**
 * Debian's dnstwist on the lab: `--registered --format json` with `extra` flags, its lookups sent
 * to the port-53 forwarder, its page fetches resolved through the same forwarder (a mount
 * namespace whose /etc/resolv.conf names it). Returns its rows and its wall time. Asynchronous:
 * the forwarder runs in this process and must keep answering while dnstwist runs.
 */
export const runDnstwist = async (lab: LookalikeLab, domain: string, extra: ReadonlyArray<string>) => {
  const dir = tempDir("di-dnstwist-")
  const resolv = join(dir, "resolv.conf")
  writeFileSync(resolv, `nameserver ${lab.resolver53}\n`)
  const cmd = `mount --bind ${resolv} /etc/resolv.conf && exec dnstwist --registered --format json --nameservers ${lab.resolver53} ${extra.join(" ")} ${domain}`
  const t0 = performance.now()
  const proc = Bun.spawn(["unshare", "--mount", "--", "sh", "-c", cmd], { stdout: "pipe", stderr: "pipe" })
  const timer = setTimeout(() => proc.kill(), 600_000)
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(timer)
  const ms = performance.now() - t0
  if (code !== 0) throw new Error(`dnstwist failed (${code}): ${stderr}`)
  return { rows: JSON.parse(stdout) as ReadonlyArray<DnstwistRow>, ms }
}
