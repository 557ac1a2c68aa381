/**
 * The audit world, started in the network namespace the caller is in (world/inside.ts for the
 * tests, bench/audit for the benchmark): the namespace's loopback up with the world's IPv6
 * addresses, certificates, the DNS tree, the web and mail servers, a local crt.sh. With
 * `delayMs`, every server listens behind a proxy on its world address that holds back each
 * answer that long (servers on 127.61.x.x / fd00:61::x, proxies on the world's addresses).
 */
import { spawnSync } from "node:child_process"
import { createHash, X509Certificate } from "node:crypto"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Option } from "effect"
import { parseResolverList, type AppConfigShape } from "../../../../src/platform/Config"
import { startCrtSh } from "../../../ct/crtsh"
import { makePki } from "../../../support/tls"
import { startDelayProxy } from "./delay"
import { startDnsTree } from "./dnsTree"
import { startServers } from "./servers"
import { ADDR, NSD_ADDRESSES, V6_ADDRESSES, worldZones } from "./zones"

const sh = (args: ReadonlyArray<string>) => {
  const r = spawnSync(args[0], args.slice(1), { encoding: "utf8" })
  if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`)
}

/** Where a server listens for a world address: the address itself, or behind its proxy. */
const behind = (a: string) => (a.startsWith("127.60.") ? a.replace("127.60.", "127.61.") : a.replace(/^fd00:60::/, "fd00:61::"))

export const startWorld = async (dir: string, delayMs = 0) => {
  const bind = delayMs > 0 ? behind : (a: string) => a
  sh(["ip", "link", "set", "lo", "up"])
  const v6 = delayMs > 0 ? [...V6_ADDRESSES, ...V6_ADDRESSES.map(behind)] : V6_ADDRESSES
  for (const a of v6) sh(["ip", "-6", "addr", "add", `${a}/128`, "dev", "lo", "nodad"])

  const pki = makePki()
  const mxCert = pki.leaf(["mx1.full.lab", "mx1.weak.lab", "mx1.bare.lab"])
  const spki = new X509Certificate(mxCert.cert).publicKey.export({ type: "spki", format: "der" })
  const tlsaHash = createHash("sha256").update(spki).digest("hex")

  mkdirSync(join(dir, "dns"), { recursive: true })
  const proxies: Array<{ close: () => void }> = []
  if (delayMs > 0) {
    for (const a of [...NSD_ADDRESSES, ADDR.resolver]) proxies.push(await startDelayProxy(a, bind(a), 53, delayMs, true))
  }
  const tree = await startDnsTree({ dir: join(dir, "dns"), zones: worldZones(tlsaHash), nsd: NSD_ADDRESSES.map(bind), resolver: bind(ADDR.resolver), rootHint: ADDR.ns1.v4 })
  const servers = await startServers(pki, mxCert, bind)
  if (delayMs > 0) {
    const web = [ADDR.good.v4, ADDR.good.v6, ADDR.otherV6, ADDR.self.v4]
    for (const a of web) for (const port of [80, 443]) proxies.push(await startDelayProxy(a, bind(a), port, delayMs, false))
    proxies.push(await startDelayProxy(ADDR.httpOnly.v4, bind(ADDR.httpOnly.v4), 80, delayMs, false))
    for (const a of [ADDR.mx.v4, ADDR.mx.v6, ADDR.mxPlain.v4]) proxies.push(await startDelayProxy(a, bind(a), 25, delayMs, false))
  }
  const crt = startCrtSh({ delayMs })

  /** The configuration of a service of this world. */
  const config: Partial<AppConfigShape> = {
    dnsResolvers: parseResolverList(`${ADDR.resolver}:53`),
    dnsAuthPort: 53,
    dnsTimeoutMs: 1500,
    dnssecTrustAnchors: Option.some(tree.anchorsFile),
    extraCaCerts: Option.some(pki.caCertPath),
    allowPrivateTargets: true,
    smtpPort: 25,
    smtpTimeoutMs: 3000,
    ctAggregatorUrl: crt.url,
    ctBudgetMs: 2000,
    dnsblIpZones: ["ip.dnsbl.lab"],
    dnsblDomainZones: ["dom.dnsbl.lab"],
    zoneAuditCacheTtlS: 0,
    monitorMinIntervalS: 1
  }
  const stop = async () => {
    for (const p of proxies) p.close()
    await crt.stop()
    // Connections the silent server holds never end: the servers go with the process.
    void servers.stop()
    await tree.stop()
  }
  /** The same, as plain values (for a process that builds its own configuration). */
  const files = { anchors: tree.anchorsFile, ca: pki.caCertPath, crt: crt.url }
  return { config, files, stop }
}
