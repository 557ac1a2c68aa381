/**
 * ALPN and elliptic-curve groups side by side with testssl.sh (`--json`, `-p` for protocols and
 * ALPN, `-f` for the ECDHE curves) on the same `openssl s_server` configurations: the protocols
 * each selects and the curves each accepts agree. testssl.sh names curves as OpenSSL does; the
 * report names them as IANA's registry does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { GROUPS } from "../../src/analyses/tls/groups"
import { startService, type TestService } from "../support/service"
import { type Lab, makeLab, type SServer, startSServer } from "./lab"

let lab: Lab
let svc: TestService
let key: string
const servers: Array<SServer> = []

beforeAll(async () => {
  lab = makeLab()
  svc = await startService({ extraCaCerts: Option.some(lab.rootPath) })
  key = (await svc.newKey("developer")).key
})
afterAll(async () => {
  for (const s of servers) s.stop()
  await svc?.stop()
})

const OPENSSL_NAMES: Record<string, string> = { prime256v1: "secp256r1", X25519: "x25519", X448: "x448" }

/** testssl.sh's verdicts: the ALPN protocols it saw selected and the ECDHE curves it found. */
const testssl = async (port: number) => {
  const file = join(lab.dir, `testssl-${port}.json`)
  const p = Bun.spawn(["testssl", "--quiet", "--color", "0", "--warnings", "off", "--jsonfile", file, "-p", "-f", `127.0.0.1:${port}`], { stdout: "ignore", stderr: "ignore" })
  await p.exited
  const findings = JSON.parse(readFileSync(file, "utf8")) as Array<{ id: string; finding: string }>
  const of = (id: string) => findings.find((f) => f.id === id)?.finding
  const alpn = [of("ALPN_HTTP2"), of("ALPN")].flatMap((f) => (f && f !== "not offered" ? f.split(/\s+/) : []))
  const curves = (of("PFS_ECDHE_curves") ?? "").split(/\s+/).filter((c) => c.length > 0).map((c) => OPENSSL_NAMES[c] ?? c)
  return { alpn: [...new Set(alpn)].sort(), curves: curves.sort() }
}

describe("side by side with testssl.sh", () => {
  test("ALPN selections and ECDHE curves agree on three configurations", async () => {
    const leaf = lab.leaf("sbs", { names: ["localhost", "127.0.0.1"] })
    const configs = [
      ["-alpn", "h2,http/1.1", "-groups", "X25519:P-384"],
      ["-alpn", "http/1.1", "-groups", "P-256:P-521:X448", "-no_tls1_3"],
      []
    ]
    const started = await Promise.all(configs.map((args) =>
      startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, "-cert_chain", lab.intermediatePath, ...args])))
    servers.push(...started)
    const [theirs, ours] = await Promise.all([
      Promise.all(started.map((s) => testssl(s.port))),
      Promise.all(started.map(async (s) => {
        const res = await svc.call(`/v1/security/tls?host=localhost&port=${s.port}`, { key })
        return await res.json() as any
      }))
    ])
    const ec = new Set(GROUPS.filter((g) => g.kind === "ec").map((g) => g.name))
    for (const [i, args] of configs.entries()) {
      expect([args, [...ours[i].alpn.negotiated].sort()]).toEqual([args, theirs[i].alpn])
      expect([args, ours[i].key_exchange.groups.filter((g: string) => ec.has(g)).sort()]).toEqual([args, theirs[i].curves])
    }
    // Not vacuous: the three differ, and testssl.sh saw something in each.
    expect(theirs.map((t) => t.curves.length)).toEqual([2, 3, 5])
    expect(theirs.map((t) => t.alpn)).toEqual([["h2", "http/1.1"], ["http/1.1"], []])
  }, 300_000)
})
