/**
 * TLS scan side by side with Debian's `sslscan` (2.0.x) and `testssl.sh` (3.0.x, `-p -E`: the
 * protocol and per-protocol cipher checks only) on the same loopback `openssl s_server`
 * configurations: agreement of each tool's protocol and suite sets with the configured truth, and
 * wall time (ours: the whole report through the REST endpoint, certificate, groups and features
 * included).
 *
 *   bun bench/tls/run.ts [--runs 3] [--no-testssl]
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Option } from "effect"
import { startService } from "../../test/support/service"
import { makeLab, sClient, startSServer } from "../../test/tls/lab"

const args = process.argv.slice(2)
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 3
const TESTSSL = !args.includes("--no-testssl")

type V = "tls1_0" | "tls1_1" | "tls1_2" | "tls1_3"
type Sets = Partial<Record<V, ReadonlyArray<string>>>

const T13 = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"]
const CBC = ["TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_DHE_RSA_WITH_AES_256_CBC_SHA"]
const CONFIGS: ReadonlyArray<{ name: string; args: ReadonlyArray<string>; truth: Sets }> = [
  { name: "TLS 1.3 only", args: ["-tls1_3"], truth: { tls1_3: T13 } },
  {
    name: "Mozilla intermediate",
    args: ["-no_tls1", "-no_tls1_1", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305"],
    truth: { tls1_2: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256"], tls1_3: T13 }
  },
  { name: "old CBC (TLS 1.0-1.2)", args: ["-no_tls1_3", "-cipher", "AES128-SHA:AES256-SHA:ECDHE-RSA-AES128-SHA:DHE-RSA-AES256-SHA:@SECLEVEL=0"], truth: { tls1_0: CBC, tls1_1: CBC, tls1_2: CBC } },
  { name: "static RSA only", args: ["-no_tls1_3", "-no_tls1", "-no_tls1_1", "-cipher", "AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256"], truth: { tls1_2: ["TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_256_GCM_SHA384", "TLS_RSA_WITH_AES_128_CBC_SHA256"] } },
  { name: "everything OpenSSL 3 serves", args: ["-cipher", "ALL:COMPLEMENTOFALL:@SECLEVEL=0"], truth: {} }
]

const ianaOf = new Map(execFileSync("openssl", ["ciphers", "-V", "-stdname", "ALL:COMPLEMENTOFALL:@SECLEVEL=0"]).toString().split("\n")
  .map((l) => /0x([0-9A-F]{2}),0x([0-9A-F]{2}) - (\S+)\s+- (\S+)/.exec(l)).filter((m) => m !== null)
  .flatMap((m) => [[m![4], m![3]], [`x${parseInt(m![1] + m![2], 16).toString(16)}`, m![3]]] as Array<[string, string]>))

const same = (a: Sets, b: Sets) =>
  (["tls1_0", "tls1_1", "tls1_2", "tls1_3"] as const).every((v) => JSON.stringify([...(a[v] ?? [])].sort()) === JSON.stringify([...(b[v] ?? [])].sort()))

const sslscan = (port: number): Sets => {
  const out = spawnSync("sslscan", ["--no-colour", `127.0.0.1:${port}`], { encoding: "utf8" }).stdout
  const sets: Record<string, Array<string>> = {}
  const ver: Record<string, V> = { "TLSv1.0": "tls1_0", "TLSv1.1": "tls1_1", "TLSv1.2": "tls1_2", "TLSv1.3": "tls1_3" }
  for (const m of out.matchAll(/^(?:Preferred|Accepted)\s+(TLSv1\.\d)\s+\d+ bits\s+(\S+)/gm)) (sets[ver[m[1]]] ??= []).push(ianaOf.get(m[2]) ?? m[2])
  return sets
}

const testssl = (port: number): Sets => {
  const file = join(mkdtempSync(join(tmpdir(), "di-testssl-")), "out.json")
  spawnSync("testssl", ["--quiet", "--color", "0", "--warnings", "off", "--jsonfile", file, "-p", "-E", `127.0.0.1:${port}`], { encoding: "utf8" })
  const sets: Record<string, Array<string>> = {}
  for (const e of JSON.parse(readFileSync(file, "utf8")) as Array<{ id: string }>) {
    const m = /^cipher-(tls1(?:_\d)?)_(x[0-9a-f]+)$/.exec(e.id)
    if (m) (sets[m[1] === "tls1" ? "tls1_0" : m[1]] ??= []).push(ianaOf.get(m[2]) ?? m[2])
  }
  return sets
}

/** The truth by `openssl s_client`, one handshake per suite OpenSSL knows for each version. */
const truthByClient = (port: number): Sets => {
  const sets: Record<string, Array<string>> = {}
  const flags: Record<V, string> = { tls1_0: "-tls1", tls1_1: "-tls1_1", tls1_2: "-tls1_2", tls1_3: "-tls1_3" }
  for (const v of ["tls1_0", "tls1_1", "tls1_2", "tls1_3"] as const) {
    const names = v === "tls1_3"
      ? ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_8_SHA256"]
      : execFileSync("openssl", ["ciphers", "-s", flags[v], "ALL:COMPLEMENTOFALL:@SECLEVEL=0"]).toString().trim().split(":")
    for (const n of names) {
      const r = sClient(port, [flags[v], ...(v === "tls1_3" ? ["-ciphersuites", n] : ["-cipher", `${n}:@SECLEVEL=0`])])
      if (r) (sets[v] ??= []).push(r.cipher)
    }
  }
  return sets
}

const timed = async <A>(f: () => A | Promise<A>): Promise<[A, number]> => {
  const t0 = performance.now()
  const a = await f()
  return [a, performance.now() - t0]
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const lab = makeLab()
const leaf = lab.leaf("bench", { names: ["localhost", "127.0.0.1"] })
const svc = await startService({ extraCaCerts: Option.some(lab.rootPath) })
const key = (await svc.newKey("developer")).key
const rows: Array<string> = []
for (const c of CONFIGS) {
  const srv = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, "-cert_chain", lab.intermediatePath, ...c.args])
  const ours: Array<number> = []
  const theirs: Array<number> = []
  let mine: Sets = {}
  let scanned: Sets = {}
  for (let i = 0; i < RUNS; i++) {
    const [r, ms] = await timed(async () => (await (await svc.call(`/v1/security/tls?host=localhost&port=${srv.port}`, { key })).json()) as any)
    mine = Object.fromEntries(Object.entries(r.cipher_suites).filter(([, s]) => (s as Array<string>).length > 0)) as Sets
    ours.push(ms)
    const [s, sms] = await timed(() => sslscan(srv.port))
    scanned = s
    theirs.push(sms)
  }
  const [t, tms] = TESTSSL ? await timed(() => testssl(srv.port)) : [{} as Sets, Number.NaN]
  // "everything": the truth is what s_client negotiates suite by suite.
  const truth = Object.keys(c.truth).length ? c.truth : truthByClient(srv.port)
  rows.push(`| ${c.name} | ${same(mine, truth) ? "yes" : "NO"} | ${same(scanned, truth) ? "yes" : "NO"} | ${TESTSSL ? (same(t, truth) ? "yes" : "NO") : "-"} | ${median(ours).toFixed(0)} | ${median(theirs).toFixed(0)} | ${TESTSSL ? tms.toFixed(0) : "-"} | ${(median(theirs) / median(ours)).toFixed(1)}x | ${TESTSSL ? `${(tms / median(ours)).toFixed(0)}x` : "-"} |`)
  if (!same(mine, truth) || !same(scanned, truth)) console.error(c.name, JSON.stringify({ truth, mine, scanned, testssl: t }))
  srv.stop()
}
await svc.stop()
console.log(`| server | domain-intel = truth | sslscan = truth | testssl.sh = truth | domain-intel ms | sslscan ms | testssl.sh ms | vs sslscan | vs testssl.sh |`)
console.log(`|---|---|---|---|---|---|---|---|---|`)
for (const r of rows) console.log(r)
