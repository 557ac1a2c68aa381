/**
 * The takeover lab: a private DNS world on loopback built from real Debian software, for the
 * tests and the benchmark. NSD serves a fake root, the TLDs (`com`, `net`, `io`), the providers'
 * zones (a lab `github.io`, `amazonaws.com`, `herokuapp.com`, `azurewebsites.net`, `fastly.net`,
 * DNS hosts) and the victims' zones; a second NSD serves nothing the world delegates to it, so it
 * answers REFUSED (a DNS host where the zone was deleted); a black hole takes DNS queries and never
 * answers; Unbound is the recursive resolver (a stub per zone and per delegation, since every
 * server listens on one random port). Each provider address has Bun servers on ports 80 and 443
 * (a self-signed certificate) that answer per Host as the real service does: its page for a
 * claimed name, its "no such resource" page for any other. Registered domains the world leaves
 * out of its TLDs do not exist (NXDOMAIN): anyone could register them.
 * Addresses: 127.56.<n>.x. `.1` NSD, `.5` the refusing NSD, `.6` the black hole, `.53` Unbound,
 * `.70` and up the web servers.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import * as dgram from "node:dgram"
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BIN } from "../../dns/lab"
import { makePki } from "../../support/tls"

export interface LabZone {
  /** Without the final dot: "victim.com". */
  readonly name: string
  /** Zone-file lines, relative owners ("www CNAME x.github.io."). */
  readonly records: ReadonlyArray<string>
  /** Whether NSD hands out the zone by AXFR. */
  readonly axfr?: boolean
}

/** What a web server answers for one request: by Host (the victim's name) and scheme. */
export type WebHandler = (host: string, scheme: "http" | "https", req: Request) => Response | Promise<Response>

export interface TakeoverLab {
  readonly port: number
  /** "ip:port" of Unbound. */
  readonly resolver: string
  readonly addr: (h: number) => string
  /**
   * Replaces the records of a served zone and has NSD read it again (SIGHUP: NSD reloads the zone
   * files whose mtime changed). Unbound's cache keeps old answers at most 5 s.
   */
  readonly setZone: (name: string, records: ReadonlyArray<string>) => void
  readonly stop: () => Promise<void>
}

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
    await Bun.sleep(100)
  }
  throw new Error(`DNS server ${host}:${port} did not answer within ${ms} ms`)
}

const abs = (owner: string, zone: string) => (owner === "@" ? zone : owner.endsWith(".") ? owner.slice(0, -1) : `${owner}.${zone}`).toLowerCase()

/** The served zone a name falls in (the longest suffix), "" for the root. */
const zoneOf = (name: string, zones: ReadonlySet<string>): string => {
  for (let n = name; n !== ""; n = n.includes(".") ? n.slice(n.indexOf(".") + 1) : "") if (zones.has(n)) return n
  return ""
}

export const startTakeoverLab = async (opts: {
  readonly n: number
  readonly zones: ReadonlyArray<LabZone>
  readonly web: ReadonlyMap<number, WebHandler>
  readonly port?: number
}): Promise<TakeoverLab> => {
  const dir = mkdtempSync(join(tmpdir(), "di-takeover-"))
  const a = (h: number) => `127.56.${opts.n}.${h}`
  const port = opts.port ?? await freePort(a(1))
  const procs: Array<ChildProcess> = []
  const closers: Array<() => void> = []
  const stop = async () => {
    for (const c of closers) try { c() } catch {}
    for (const p of procs) if (p.exitCode === null) try { p.kill("SIGTERM") } catch {}
    await Promise.all(procs.map((p) => p.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => {
      const t = setTimeout(() => { try { p.kill("SIGKILL") } catch {} r() }, 3000)
      p.once("exit", () => { clearTimeout(t); r() })
    })))
    rmSync(dir, { recursive: true, force: true })
  }
  let setZone: TakeoverLab["setZone"] = () => { throw new Error("the lab is not started") }
  try {
    // Every served zone: its own NS (lab-ns.<zone>, on the NSD) and a delegation with glue in its parent.
    const served = new Set(opts.zones.map((z) => z.name))
    const extra = new Map<string, Array<string>>([["", []]])
    for (const z of opts.zones) extra.set(z.name, [])
    for (const z of opts.zones) extra.get(zoneOf(z.name.slice(z.name.indexOf(".") + 1), served))!.push(`${z.name}. NS lab-ns.${z.name}.`, `lab-ns.${z.name}. A ${a(1)}`)
    const text = (zone: string, records: ReadonlyArray<string>, raw: ReadonlyArray<string> = []) => [
      `$ORIGIN ${zone || "."}${zone ? "." : ""}`,
      "$TTL 60",
      `@ IN SOA lab-ns.${zone || "root-servers.net"}. hostmaster.${zone || "root-servers.net"}. 2026010101 3600 600 86400 60`,
      `@ IN NS lab-ns.${zone || "root-servers.net"}.`,
      ...(zone === "" ? [`lab-ns.root-servers.net. IN A ${a(1)}`] : [`lab-ns IN A ${a(1)}`]),
      ...records.map((r) => r.replace(/^(\S+)\s+/, "$1 IN ")),
      ...(extra.get(zone) ?? []).map((r) => r.replace(/^(\S+)\s+/, "$1 IN ")),
      ...raw
    ].join("\n") + "\n"
    // The root has a DNSKEY, as the real one has: the service asks for it to judge its own
    // resolvers (the zone is not signed: nothing here validates).
    const keyBase = spawnSync(BIN.keygen(), ["-q", "-K", dir, "-a", "ECDSAP256SHA256", "-f", "KSK", "-n", "ZONE", "."], { cwd: dir, encoding: "utf8" }).stdout.trim()
    const rootKey = readFileSync(join(dir, `${keyBase}.key`), "utf8").split("\n").filter((l) => l.trim() !== "" && !l.startsWith(";"))
    const files: Array<[string, string, boolean]> = [["", join(dir, "root.zone"), false]]
    writeFileSync(files[0][1], text("", [], rootKey))
    for (const z of opts.zones) {
      const f = join(dir, `${z.name}.zone`)
      writeFileSync(f, text(z.name, z.records))
      files.push([z.name, f, z.axfr === true])
    }
    const nsdConf = (name: string, ip: string, zones: ReadonlyArray<[string, string, boolean]>) => {
      const conf = join(dir, `${name}.conf`)
      writeFileSync(conf, [
        "server:", `  ip-address: ${ip}@${port}`, `  username: ""`, `  chroot: ""`, `  zonesdir: "${dir}"`, `  pidfile: "${dir}/${name}.pid"`,
        `  database: ""`, `  zonelistfile: "${dir}/${name}.zonelist"`, `  xfrdfile: "${dir}/${name}.xfrd"`, `  xfrdir: "${dir}"`,
        `  logfile: "${dir}/${name}.log"`, "  server-count: 1",
        // No response rate limiting: the lab's one resolver asks far more than any real client would.
        "  rrl-ratelimit: 0", "  rrl-whitelist-ratelimit: 0", "  do-ip6: no", "  verbosity: 1", "remote-control:", "  control-enable: no",
        ...zones.flatMap(([zone, file, xfr]) => ["zone:", `  name: "${zone || "."}"`, `  zonefile: "${file}"`, ...(xfr ? ["  provide-xfr: 127.0.0.0/8 NOKEY"] : [])])
      ].join("\n") + "\n")
      return conf
    }
    const spawnLogged = (cmd: string, args: Array<string>) => {
      const p = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] })
      p.stderr?.resume()
      procs.push(p)
    }
    spawnLogged(BIN.nsd(), ["-d", "-c", nsdConf("nsd-main", a(1), files)])
    const nsdMain = procs[procs.length - 1]
    setZone = (name, records) => {
      const file = files.find(([zone]) => zone === name)
      if (file === undefined) throw new Error(`${name} is not a zone of the lab`)
      writeFileSync(file[1], text(name, records))
      nsdMain.kill("SIGHUP")
    }
    const dummy = join(dir, "refusing.zone")
    writeFileSync(dummy, text("refusing.invalid", []))
    spawnLogged(BIN.nsd(), ["-d", "-c", nsdConf("nsd-refusing", a(5), [["refusing.invalid", dummy, false]])])

    // The black hole: takes every query, answers none.
    const hole = dgram.createSocket("udp4")
    await new Promise<void>((r) => hole.bind(port, a(6), () => r()))
    const holeTcp = net.createServer((s) => s.on("error", () => {}))
    await new Promise<void>((r) => holeTcp.listen(port, a(6), () => r()))
    closers.push(() => hole.close(), () => holeTcp.close())

    // Unbound: a stub for every served zone, and for every delegation to a lab address.
    const addresses = new Map<string, string>()
    const delegations: Array<[string, string]> = []
    for (const z of opts.zones) {
      for (const r of z.records) {
        const [owner, type, target] = r.trim().split(/\s+/)
        if (type === "A") addresses.set(abs(owner, z.name), target)
        if (type === "NS" && owner !== "@") delegations.push([abs(owner, z.name), abs(target, z.name)])
      }
    }
    const stubs = new Map<string, Array<string>>([[".", [a(1)]]])
    for (const z of opts.zones) stubs.set(z.name, [a(1)])
    for (const [owner, host] of delegations) {
      const ip = addresses.get(host)
      if (ip !== undefined) stubs.set(owner, [...(stubs.get(owner) ?? []), ip])
    }
    const unboundConf = join(dir, "unbound.conf")
    writeFileSync(unboundConf, [
      "server:", `  interface: ${a(53)}`, `  port: ${port}`, "  do-ip6: no", "  interface-automatic: no", "  access-control: 127.0.0.0/8 allow",
      `  username: ""`, `  chroot: ""`, `  directory: "${dir}"`, `  pidfile: "${dir}/unbound.pid"`, "  use-syslog: no", `  logfile: "${dir}/unbound.log"`,
      "  do-not-query-localhost: no", `  module-config: "iterator"`, "  num-threads: 1", "  so-reuseport: no", "  qname-minimisation: no",
      "  minimal-responses: no", "  cache-max-ttl: 5", "  cache-max-negative-ttl: 5", "  infra-host-ttl: 5", "  verbosity: 1",
      ...[...stubs].flatMap(([zone, ips]) => ["stub-zone:", `  name: "${zone}"`, ...ips.map((ip) => `  stub-addr: ${ip}@${port}`), "  stub-prime: no"]),
      "remote-control:", "  control-enable: no"
    ].join("\n") + "\n")
    spawnLogged(BIN.unbound(), ["-d", "-c", unboundConf])

    // The providers' web servers, per address, on 80 and 443.
    const pki = makePki()
    const leaf = pki.selfSigned(["provider.lab"])
    for (const [h, handler] of opts.web) {
      for (const scheme of ["http", "https"] as const) {
        const server = Bun.serve({
          hostname: a(h),
          port: scheme === "http" ? 80 : 443,
          idleTimeout: 30,
          ...(scheme === "https" ? { tls: { cert: leaf.cert, key: leaf.key } } : {}),
          fetch: (req) => handler((req.headers.get("host") ?? "").replace(/:\d+$/, "").toLowerCase(), scheme, req)
        })
        closers.push(() => server.stop(true))
      }
    }
    await waitUdp(a(1), port, "com.")
    await waitUdp(a(53), port, "com.")
  } catch (e) {
    const logs = readdirSync(dir).filter((f) => f.endsWith(".log")).map((f) => `${f}: ${readFileSync(join(dir, f), "utf8")}`).join("\n")
    await stop()
    throw new Error(`${(e as Error).message}\n${logs}`)
  }
  return { port, resolver: `${a(53)}:${port}`, addr: a, setZone: (name, records) => setZone(name, records), stop }
}
