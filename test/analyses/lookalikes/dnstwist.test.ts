/**
 * Our permutations side by side with Debian's dnstwist (20221213), run here with its default
 * options (no dictionary, no TLD file). It runs inside a fresh network namespace (`unshare
 * --net`: only a down loopback), so its lookups fail at once and nothing leaves the machine; its
 * JSON output still lists every permutation with its fuzzer. For every fuzzer of dnstwist the
 * two sets must be equal: every name it makes we make under the same fuzzer, and we make none it
 * does not (our own fuzzers, `plural` and `tld-swap`, come on top).
 */
import { describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DNSTWIST_FUZZERS, permutations } from "../../../src/analyses/lookalikes/permutations"
import { tempDir } from "../../support/tmp"

interface Row {
  readonly fuzzer: string
  readonly domain: string
}

// The permutations do not depend on lookups. With dnspython installed (the lab tests need it)
// dnstwist would make four failing queries per name; a stub `dns` package that fails to import
// puts it back on its system-resolver path, whose lookups fail at once in the namespace.
const noDnspython = tempDir("di-nodnspython-")
mkdirSync(join(noDnspython, "dns"))
writeFileSync(join(noDnspython, "dns", "__init__.py"), "raise ImportError('dnspython hidden for the permutation test')\n")

const dnstwist = (domain: string): ReadonlyArray<Row> => {
  const r = spawnSync("unshare", ["--net", "--", "dnstwist", "--format", "json", domain], {
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, PYTHONPATH: noDnspython }
  })
  if (r.status !== 0) throw new Error(`dnstwist ${domain} failed (${r.status}): ${r.error ?? ""} ${r.stderr}`)
  return JSON.parse(r.stdout) as ReadonlyArray<Row>
}

const byFuzzer = (rows: Iterable<Row>): Map<string, Set<string>> => {
  const m = new Map<string, Set<string>>()
  for (const r of rows) {
    if (!m.has(r.fuzzer)) m.set(r.fuzzer, new Set())
    m.get(r.fuzzer)!.add(r.domain)
  }
  return m
}

// Short, long, digits, hyphens, a two-label public suffix, an internationalized name (given in
// Unicode and in punycode), one-letter labels, a subdomain, a suffix outside the public list.
const DOMAINS = [
  "example.com",
  "x.com",
  "onlinebanking.com",
  "shop24.de",
  "e-shop.org",
  "example.co.uk",
  "my-bank.co.uk",
  "bücher.de",
  "xn--mnchen-3ya.de",
  "www.paypal.com",
  "victim.test",
  "q1.io"
]

describe("permutations equal dnstwist's, fuzzer by fuzzer", () => {
  for (const domain of DOMAINS) {
    test(domain, () => {
      const theirs = dnstwist(domain)
      const original = theirs.filter((r) => r.fuzzer === "*original")
      expect(original.length).toBe(1)
      const ours = permutations(domain)!
      expect(ours.domain.ascii).toBe(original[0].domain)
      const mine = byFuzzer(ours.permutations)
      const their = byFuzzer(theirs.filter((r) => r.fuzzer !== "*original"))
      // dnstwist ran these fuzzers and nothing else.
      for (const f of their.keys()) expect(DNSTWIST_FUZZERS as ReadonlyArray<string>).toContain(f)
      for (const f of DNSTWIST_FUZZERS) {
        const a = [...(their.get(f) ?? [])].sort()
        const b = [...(mine.get(f) ?? [])].sort()
        const missing = a.filter((d) => !mine.get(f)?.has(d))
        const extra = b.filter((d) => !their.get(f)?.has(d))
        expect({ fuzzer: f, missing, extra }).toEqual({ fuzzer: f, missing: [], extra: [] })
        expect(b.length).toBe(a.length)
      }
      // Our own fuzzers never take a name one of dnstwist's made.
      const theirAll = new Set(theirs.map((r) => r.domain))
      for (const p of ours.permutations) if (p.fuzzer === "plural" || p.fuzzer === "tld-swap") expect(theirAll.has(p.domain)).toBe(false)
    }, 120_000)
  }
})
