/**
 * A private DNS tree on loopback, built from real Debian DNS software for the tests and the
 * benchmark: NSD serving a signed fake root, `lab.` and one child zone per planted defect;
 * a second NSD with a drifted copy of one zone; Unbound as the recursive resolver (stub zones to
 * the NSDs, iterator only, so bogus data reaches the validator under test); a second Unbound
 * that serves one zone and also recurses for anyone (the open resolver). Keys and signatures
 * from BIND's dnssec-keygen/dnssec-signzone. All on 127.53.<n>.x and one random port.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as net from "node:net"

const bin = (paths: ReadonlyArray<string>): string => {
  for (const p of paths) if (existsSync(p)) return p
  throw new Error(`required binary missing: ${paths.join(" or ")} (install the Debian packages listed in .ci/run)`)
}

export const BIN = {
  nsd: () => bin(["/usr/sbin/nsd"]),
  unbound: () => bin(["/usr/sbin/unbound"]),
  keygen: () => bin(["/usr/bin/dnssec-keygen", "/usr/sbin/dnssec-keygen"]),
  signzone: () => bin(["/usr/bin/dnssec-signzone", "/usr/sbin/dnssec-signzone"])
}

const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): string => {
  const r = spawnSync(cmd, args as Array<string>, { cwd, encoding: "utf8" })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr || r.stdout}`)
  return r.stdout
}

export interface ZoneSpec {
  readonly name: string // without trailing dot, e.g. "clean.lab"
  readonly algorithm?: string // dnssec-keygen -a; undefined = unsigned
  readonly nsec3?: { readonly salt: string; readonly iterations: number }
  readonly signWindow?: { readonly start: string; readonly end: string }
  readonly soa?: { readonly serial?: number; readonly refresh: number; readonly retry: number; readonly expire: number; readonly minimum: number }
  /** Extra records, relative owner names, zone-file syntax ("www A 127.0.0.10"). */
  readonly records?: ReadonlyArray<string>
  readonly caa?: boolean
  /** Addresses of its nameservers (ns1, ns2, ...). */
  readonly ns: ReadonlyArray<string>
  readonly axfr?: boolean
  /** Served by the drift NSD with serial + 1. */
  readonly drift?: boolean
  /** Served also by the open resolver's auth-zone. */
  readonly open?: boolean
  /** Applied to the signed zone text before serving. */
  readonly tamper?: (signed: string) => string
  /**
   * Served by an NSD of its own on its `ns` addresses (not the shared one), which `stopZone`
   * stops: the zone's DNS breaks while the root, `lab.` and the resolver keep answering.
   */
  readonly ownServer?: boolean
}

export interface Lab {
  readonly port: number
  readonly resolver: string // "ip:port"
  readonly anchorsFile: string
  readonly dir: string
  readonly addr: (host: number) => string
  readonly zones: ReadonlyArray<ZoneSpec>
  /** Stops the own NSD of an `ownServer` zone. */
  readonly stopZone: (name: string) => Promise<void>
  readonly stop: () => Promise<void>
}

const GOOD_SOA = { refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600 }

const freePort = async (host: string): Promise<number> => {
  for (let i = 0; i < 50; i++) {
    const port = 20000 + Math.floor(Math.random() * 30000)
    const ok = await new Promise<boolean>((resolve) => {
      const srv = net.createServer()
      srv.once("error", () => resolve(false))
      srv.listen(port, host, () => srv.close(() => resolve(true)))
    })
    if (ok) return port
  }
  throw new Error("no free port")
}

const waitUdp = async (host: string, port: number, name: string, ms = 20000) => {
  const packet = await import("dns-packet")
  const dgram = await import("node:dgram")
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = dgram.createSocket("udp4")
      const t = setTimeout(() => { s.close(); resolve(false) }, 300)
      s.on("message", () => { clearTimeout(t); s.close(); resolve(true) })
      s.on("error", () => { clearTimeout(t); try { s.close() } catch {} resolve(false) })
      s.send(packet.encode({ type: "query", id: 1, flags: 0, questions: [{ type: "SOA", name, class: "IN" }] }), port, host)
    })
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`DNS server ${host}:${port} did not answer within ${ms} ms`)
}

/** The standard defect zones of the tests; `n` picks 127.53.n.x. */
export const standardZones = (n: number): ReadonlyArray<ZoneSpec> => {
  const a = (h: number) => `127.53.${n}.${h}`
  const two = [a(1), a(2)]
  return [
    { name: "clean.lab", algorithm: "ED25519", nsec3: { salt: "-", iterations: 0 }, caa: true, ns: two, records: ["www A 127.0.0.10", "@ MX 10 mail", "mail A 127.0.0.11"] },
    { name: "drift.lab", algorithm: "ECDSAP384SHA384", caa: true, ns: [a(1), a(3)], drift: true },
    { name: "timers.lab", algorithm: "RSASHA512", caa: true, ns: two, soa: { refresh: 3600, retry: 600, expire: 86400, minimum: 172800 } },
    { name: "wild.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two, records: ["* A 127.0.0.99", "vpn A 127.0.0.99"] },
    { name: "cnamewild.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two, records: ["* CNAME target", "target A 127.0.0.98"] },
    { name: "exposed.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two, records: ["admin A 127.0.0.21", "vpn A 127.0.0.22", "jenkins A 127.0.0.23", "kibana CNAME kibana-host", "kibana-host A 127.0.0.24"] },
    { name: "open.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: [a(1), a(4)], open: true },
    { name: "axfr.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two, axfr: true, records: Array.from({ length: 300 }, (_, i) => `host${i} A 127.0.${Math.floor(i / 250)}.${(i % 250) + 1}`) },
    { name: "expired.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two, signWindow: { start: "20200101000000", end: "20200201000000" } },
    { name: "tampered.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two, records: ["@ A 127.0.0.10"], tamper: (s) => s.replace(/(tampered\.lab\.\s+\d+\s+IN\s+A\s+)127\.0\.0\.10/, "$1127.0.0.66") },
    { name: "nsec3bad.lab", algorithm: "ECDSAP256SHA256", nsec3: { salt: "abcdef01", iterations: 10 }, caa: true, ns: two },
    { name: "nocaa.lab", algorithm: "ECDSAP256SHA256", caa: false, ns: two },
    { name: "single.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: [a(1)] },
    { name: "unsigned.lab", caa: true, ns: two },
    { name: "caabad.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: two },
    { name: "lame.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: [a(1), a(9)] }
  ]
}

const zoneText = (z: ZoneSpec, serial: number): string => {
  const soa = z.soa ?? GOOD_SOA
  const lines = [
    `$ORIGIN ${z.name}.`,
    `$TTL 3600`,
    `@ IN SOA ns1.${z.name}. hostmaster.${z.name}. ${serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`,
    ...z.ns.map((_, i) => `@ IN NS ns${i + 1}.${z.name}.`),
    ...z.ns.map((ip, i) => `ns${i + 1} IN A ${ip}`),
    ...(z.caa ? [`@ IN CAA 0 issue "letsencrypt.org"`, `@ IN CAA 0 iodef "mailto:security@${z.name}"`] : []),
    ...(z.records ?? []).map((r) => r.replace(/^(\S+)\s+/, "$1 IN "))
  ]
  return lines.join("\n") + "\n"
}

/** Generates a key, signs `text` for `zone`; returns the signed text and the DS lines. */
const sign = (dir: string, zone: string, text: string, algorithm: string, opts: { nsec3?: ZoneSpec["nsec3"]; window?: ZoneSpec["signWindow"] }) => {
  const keyArgs = algorithm.startsWith("RSA") ? ["-b", "1024"] : []
  const base = run(BIN.keygen(), ["-q", "-K", dir, "-a", algorithm, ...keyArgs, "-P", "20190101000000", "-A", "20190101000000", "-f", "KSK", "-n", "ZONE", zone + "."], dir).trim()
  const keyText = readFileSync(join(dir, base + ".key"), "utf8")
  const unsigned = join(dir, `${zone || "root"}.zone`)
  writeFileSync(unsigned, text + keyText)
  const out = join(dir, `${zone || "root"}.signed`)
  const args = ["-q", "-K", dir, "-d", dir, "-o", zone + ".", "-f", out, "-z", "-O", "full"]
  if (opts.nsec3) args.push("-3", opts.nsec3.salt, "-H", String(opts.nsec3.iterations))
  if (opts.window) args.push("-P", "-s", opts.window.start, "-e", opts.window.end)
  args.push(unsigned, join(dir, base + ".key"))
  run(BIN.signzone(), args, dir)
  const ds = readFileSync(join(dir, `dsset-${zone}.`), "utf8")
  return { signed: readFileSync(out, "utf8"), ds }
}

type LabOptions = { n?: number; port?: number; zones?: ReadonlyArray<ZoneSpec>; treeWindow?: ZoneSpec["signWindow"] }

export const startLab = async (opts: LabOptions = {}): Promise<Lab> => {
  const dir = mkdtempSync(join(tmpdir(), "di-dnslab-"))
  try {
    return await startLabIn(dir, opts)
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
}

const startLabIn = async (dir: string, opts: LabOptions): Promise<Lab> => {
  const n = opts.n ?? 1 + Math.floor(Math.random() * 250)
  const a = (h: number) => `127.53.${n}.${h}`
  const zones = opts.zones ?? standardZones(n)
  const port = opts.port ?? await freePort(a(1))
  const serial = 2026010101
  const files: Record<string, string> = {} // zone -> served file (NSD A)
  const driftFiles: Record<string, string> = {}
  const dsLines: Array<string> = []
  const glue: Array<string> = []

  for (const z of zones) {
    const text = zoneText(z, serial)
    const path = join(dir, `${z.name}.served`)
    if (z.algorithm) {
      const { signed, ds } = sign(dir, z.name, text, z.algorithm, { nsec3: z.nsec3, window: z.signWindow })
      writeFileSync(path, z.tamper ? z.tamper(signed) : signed)
      dsLines.push(ds)
      if (z.drift) {
        // Same key, next serial: re-sign a second copy.
        const text2 = zoneText(z, serial + 1)
        const keyFile = readdirSync(dir).find((f) => f.startsWith(`K${z.name}.+`) && f.endsWith(".key"))!
        const unsigned2 = join(dir, `${z.name}.zone2`)
        writeFileSync(unsigned2, text2 + readFileSync(join(dir, keyFile), "utf8"))
        const out2 = join(dir, `${z.name}.served2`)
        run(BIN.signzone(), ["-q", "-K", dir, "-d", join(dir), "-o", z.name + ".", "-f", out2, "-z", "-O", "full", unsigned2, join(dir, keyFile)], dir)
        driftFiles[z.name] = out2
      }
    } else {
      writeFileSync(path, text)
      if (z.drift) {
        const p2 = join(dir, `${z.name}.served2`)
        writeFileSync(p2, zoneText(z, serial + 1))
        driftFiles[z.name] = p2
      }
    }
    files[z.name] = path
    glue.push(...z.ns.map((ip, i) => `${z.name}. IN NS ns${i + 1}.${z.name}.\nns${i + 1}.${z.name}. IN A ${ip}`))
  }

  // lab. and the root, signed, with DS for their children.
  const labText = [
    `$TTL 3600`,
    `lab. IN SOA ns.lab. hostmaster.lab. ${serial} 86400 7200 1209600 3600`,
    `lab. IN NS ns.lab.`,
    `ns.lab. IN A ${a(1)}`,
    ...glue,
    ...dsLines.map((l) => l.trim())
  ].join("\n") + "\n"
  const lab = sign(dir, "lab", labText, "ECDSAP256SHA256", { window: opts.treeWindow })
  files["lab"] = join(dir, "lab.served")
  writeFileSync(files["lab"], lab.signed)
  const rootText = [
    `$TTL 3600`,
    `. IN SOA a.root-servers.net. nstld.verisign-grs.com. ${serial} 1800 900 604800 86400`,
    `. IN NS a.root-servers.net.`,
    `a.root-servers.net. IN A ${a(1)}`,
    `lab. IN NS ns.lab.`,
    `ns.lab. IN A ${a(1)}`,
    lab.ds.trim()
  ].join("\n") + "\n"
  const root = sign(dir, "", rootText, "RSASHA256", { window: opts.treeWindow })
  files[""] = join(dir, "root.served")
  writeFileSync(files[""], root.signed)
  const anchorsFile = join(dir, "anchors.txt")
  writeFileSync(anchorsFile, "; private test root\n" + root.ds)

  const procs: Array<ChildProcess> = []
  const nsdConf = (name: string, ips: ReadonlyArray<string>, zoneFiles: Record<string, string>, axfrZones: ReadonlySet<string>) => {
    const conf = join(dir, `${name}.conf`)
    writeFileSync(conf, [
      "server:",
      ...ips.map((ip) => `  ip-address: ${ip}@${port}`),
      `  username: ""`,
      `  chroot: ""`,
      `  zonesdir: "${dir}"`,
      `  pidfile: "${dir}/${name}.pid"`,
      `  database: ""`,
      `  zonelistfile: "${dir}/${name}.zonelist"`,
      `  xfrdfile: "${dir}/${name}.xfrd"`,
      `  xfrdir: "${dir}"`,
      `  logfile: "${dir}/${name}.log"`,
      `  server-count: 1`,
      `  do-ip6: no`,
      `  verbosity: 1`,
      `  refuse-any: yes`,
      // No response rate limiting: a sweep of thousands of names (lookalikes) through the lab's
      // one resolver is a resolver's ordinary traffic, which NSD's default 200 answers/s would slip.
      `  rrl-ratelimit: 0`,
      "remote-control:",
      "  control-enable: no",
      ...Object.entries(zoneFiles).flatMap(([zone, file]) => [
        "zone:",
        `  name: "${zone || "."}"`,
        `  zonefile: "${file}"`,
        ...(axfrZones.has(zone) ? ["  provide-xfr: 127.0.0.0/8 NOKEY"] : [])
      ])
    ].join("\n") + "\n")
    return conf
  }
  const spawnLogged = (cmd: string, args: Array<string>, name: string) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] })
    let err = ""
    p.stderr?.on("data", (d) => { err += d })
    p.on("exit", (code) => { if (code && code !== 0) console.error(`${name} exited ${code}: ${err}`) })
    procs.push(p)
    return p
  }

  const axfrZones = new Set(zones.filter((z) => z.axfr).map((z) => z.name))
  const own = zones.filter((z) => z.ownServer)
  const shared = Object.fromEntries(Object.entries(files).filter(([zone]) => !own.some((z) => z.name === zone)))
  spawnLogged(BIN.nsd(), ["-d", "-c", nsdConf("nsd-a", [a(1), a(2)], shared, axfrZones)], "nsd-a")
  const ownProcs = new Map(own.map((z) => [z.name, spawnLogged(BIN.nsd(), ["-d", "-c", nsdConf(`nsd-${z.name}`, z.ns, { [z.name]: files[z.name] }, new Set())], `nsd-${z.name}`)]))
  const driftZones = Object.fromEntries(Object.entries(driftFiles))
  if (Object.keys(driftZones).length > 0) spawnLogged(BIN.nsd(), ["-d", "-c", nsdConf("nsd-b", [a(3)], driftZones, new Set())], "nsd-b")

  const unboundConf = (name: string, ip: string, stubs: Record<string, ReadonlyArray<string>>, authZones: Record<string, string>) => {
    const conf = join(dir, `${name}.conf`)
    writeFileSync(conf, [
      "server:",
      `  interface: ${ip}`,
      `  port: ${port}`,
      "  do-ip6: no",
      "  interface-automatic: no",
      "  access-control: 127.0.0.0/8 allow",
      `  username: ""`,
      `  chroot: ""`,
      `  directory: "${dir}"`,
      `  pidfile: "${dir}/${name}.pid"`,
      "  use-syslog: no",
      `  logfile: "${dir}/${name}.log"`,
      "  do-not-query-localhost: no",
      `  module-config: "iterator"`,
      "  num-threads: 1",
      "  so-reuseport: no",
      "  qname-minimisation: no",
      "  minimal-responses: no",
      "  cache-max-ttl: 5",
      "  cache-max-negative-ttl: 5",
      "  infra-host-ttl: 5",
      "  verbosity: 1",
      ...Object.entries(authZones).flatMap(([zone, file]) => [
        "auth-zone:",
        `  name: "${zone}."`,
        `  zonefile: "${file}"`,
        "  for-downstream: yes",
        "  for-upstream: no",
        "  fallback-enabled: no"
      ]),
      ...Object.entries(stubs).flatMap(([zone, addrs]) => [
        "stub-zone:",
        `  name: "${zone || "."}"`,
        ...addrs.map((x) => `  stub-addr: ${x}@${port}`),
        "  stub-prime: no"
      ]),
      "remote-control:",
      "  control-enable: no"
    ].join("\n") + "\n")
    return conf
  }
  const stubs: Record<string, ReadonlyArray<string>> = { "": [a(1)], lab: [a(1)] }
  for (const z of zones) stubs[z.name] = z.ns.filter((ip) => ip !== a(4))
  spawnLogged(BIN.unbound(), ["-d", "-c", unboundConf("unbound-r", a(53), stubs, {})], "unbound-r")
  const openZones = zones.filter((z) => z.open)
  if (openZones.length > 0) {
    spawnLogged(BIN.unbound(), ["-d", "-c", unboundConf("unbound-open", a(4), { "": [a(1)] }, Object.fromEntries(openZones.map((z) => [z.name, files[z.name]])))], "unbound-open")
  }

  const stop = async () => {
    for (const p of procs) {
      if (p.exitCode === null && p.pid) {
        try { p.kill("SIGTERM") } catch {}
      }
    }
    await Promise.all(procs.map((p) => p.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => {
      const t = setTimeout(() => { try { p.kill("SIGKILL") } catch {} r() }, 3000)
      p.once("exit", () => { clearTimeout(t); r() })
    })))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitUdp(a(1), port, "lab.")
    if (Object.keys(driftZones).length > 0) await waitUdp(a(3), port, Object.keys(driftZones)[0] + ".")
    await waitUdp(a(53), port, "lab.")
    if (openZones.length > 0) await waitUdp(a(4), port, openZones[0].name + ".")
    for (const z of own) await waitUdp(z.ns[0], port, z.name + ".")
  } catch (e) {
    const logs = readdirSync(dir).filter((f) => f.endsWith(".log")).map((f) => `${f}: ${readFileSync(join(dir, f), "utf8")}`).join("\n")
    await stop()
    throw new Error(`${(e as Error).message}\n${logs}`)
  }
  const stopZone = async (name: string) => {
    const p = ownProcs.get(name)
    if (p === undefined) throw new Error(`${name} has no NSD of its own (ownServer)`)
    if (p.exitCode !== null) return
    const exited = new Promise<void>((r) => p.once("exit", () => r()))
    p.kill("SIGTERM")
    await exited
  }
  return { port, resolver: `${a(53)}:${port}`, anchorsFile, dir, addr: a, zones, stopZone, stop }
}
