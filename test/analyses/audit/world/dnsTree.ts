/**
 * A private DNS tree from real Debian software, for a world that runs in a network namespace
 * of its own (so every server takes port 53): a signed root and any zones under it, each
 * signed with BIND's dnssec-keygen/dnssec-signzone or not, delegations with glue (A and AAAA)
 * and DS written into each parent; one NSD serving every zone on its name server addresses,
 * IPv4 and IPv6; Unbound as the recursive resolver, primed with the root only, so it follows
 * the referrals down the tree (iterator only: the service under test validates DNSSEC itself).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import * as dgram from "node:dgram"
import { readFileSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { BIN } from "../../../dns/lab"

export interface NameServer {
  /** Absolute name without the final dot: "ns1.full.lab". */
  readonly name: string
  readonly v4: string
  readonly v6?: string
}

export interface TreeZone {
  /** Without the final dot ("full.lab"); "" is the root. */
  readonly name: string
  /** Zone-file lines with relative owners ("www A 127.60.1.1"); the SOA and NS are written here. */
  readonly records: ReadonlyArray<string>
  readonly nameservers: ReadonlyArray<NameServer>
  /** Signed with this dnssec-keygen algorithm (with NSEC3 when asked); unsigned when absent. */
  readonly algorithm?: string
  /** Served by nobody: the parent delegates to it, its servers do not know it (answers REFUSED). */
  readonly unserved?: boolean
}

export interface DnsTree {
  readonly dir: string
  readonly anchorsFile: string
  /** "ip:port" of the recursive resolver. */
  readonly resolver: string
  readonly stop: () => Promise<void>
}

const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): string => {
  const r = spawnSync(cmd, args as Array<string>, { cwd, encoding: "utf8" })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr || r.stdout}`)
  return r.stdout
}

const fqdn = (name: string) => (name === "" ? "." : `${name}.`)
const parentOf = (zone: string, all: ReadonlyArray<string>): string => {
  for (let n = zone; n !== ""; ) {
    n = n.includes(".") ? n.slice(n.indexOf(".") + 1) : ""
    if (all.includes(n)) return n
  }
  return ""
}
const inside = (name: string, zone: string) => zone === "" || name === zone || name.endsWith(`.${zone}`)

const SOA = "86400 7200 1209600 3600"

const zoneText = (z: TreeZone, delegations: ReadonlyArray<string>): string =>
  [
    `$ORIGIN ${fqdn(z.name)}`,
    "$TTL 3600",
    `@ IN SOA ${fqdn(z.nameservers[0].name)} hostmaster.${fqdn(z.name === "" ? "root" : z.name)} 2026010101 ${SOA}`,
    ...z.nameservers.map((ns) => `@ IN NS ${fqdn(ns.name)}`),
    // Addresses of the zone's own name servers (glue of the root's names too).
    ...z.nameservers.filter((ns) => inside(ns.name, z.name)).flatMap((ns) => [`${fqdn(ns.name)} IN A ${ns.v4}`, ...(ns.v6 ? [`${fqdn(ns.name)} IN AAAA ${ns.v6}`] : [])]),
    ...z.records.map((r) => r.replace(/^(\S+)\s+/, "$1 IN ")),
    ...delegations
  ].join("\n") + "\n"

/** Signs `text` with a fresh key of `algorithm`; returns the signed zone and its DS lines. */
const sign = (dir: string, zone: string, text: string, algorithm: string) => {
  const origin = fqdn(zone)
  const keyArgs = algorithm.startsWith("RSA") ? ["-b", "2048"] : []
  const base = run(BIN.keygen(), ["-q", "-K", dir, "-a", algorithm, ...keyArgs, "-P", "20190101000000", "-A", "20190101000000", "-f", "KSK", "-n", "ZONE", origin], dir).trim()
  const file = zone === "" ? "root" : zone
  writeFileSync(join(dir, `${file}.zone`), text + readFileSync(join(dir, `${base}.key`), "utf8"))
  run(BIN.signzone(), ["-q", "-K", dir, "-d", dir, "-o", origin, "-f", join(dir, `${file}.signed`), "-z", "-O", "full", join(dir, `${file}.zone`), join(dir, `${base}.key`)], dir)
  return { signed: readFileSync(join(dir, `${file}.signed`), "utf8"), ds: readFileSync(join(dir, `dsset-${origin}`), "utf8").trim() }
}

const waitUdp = async (host: string, port: number, name: string, ms = 20000) => {
  const packet = await import("dns-packet")
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = dgram.createSocket(host.includes(":") ? "udp6" : "udp4")
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

/**
 * Builds and starts the tree. `nsd` lists the addresses NSD listens on (every name server address
 * of a served zone must be among them, or be served by something else); `resolver` Unbound's.
 */
export const startDnsTree = async (opts: {
  readonly dir: string
  readonly zones: ReadonlyArray<TreeZone>
  readonly nsd: ReadonlyArray<string>
  readonly resolver: string
  readonly port?: number
  /** Where Unbound sends root queries (default the root's first name server). */
  readonly rootHint?: string
}): Promise<DnsTree> => {
  const { dir, zones } = opts
  const port = opts.port ?? 53
  const names = zones.map((z) => z.name)
  if (!names.includes("")) throw new Error("the tree needs its root zone")
  // Children before parents, so each parent gets its children's DS.
  const order = [...zones].sort((a, b) => b.name.split(".").length - a.name.split(".").length || (a.name === "" ? 1 : b.name === "" ? -1 : 0))
  const delegations = new Map<string, Array<string>>()
  const served: Record<string, string> = {}
  let anchor = ""
  for (const z of order) {
    const text = zoneText(z, delegations.get(z.name) ?? [])
    const file = join(dir, `${z.name === "" ? "root" : z.name}.served`)
    let ds: string | null = null
    if (z.algorithm) {
      const s = sign(dir, z.name, text, z.algorithm)
      writeFileSync(file, s.signed)
      ds = s.ds
    } else writeFileSync(file, text)
    if (!z.unserved) served[z.name] = file
    if (z.name === "") {
      anchor = ds ?? ""
      continue
    }
    const parent = parentOf(z.name, names)
    const lines = delegations.get(parent) ?? []
    lines.push(
      ...z.nameservers.map((ns) => `${fqdn(z.name)} IN NS ${fqdn(ns.name)}`),
      // Glue for names at or below the delegation (and any the parent holds).
      ...z.nameservers.filter((ns) => inside(ns.name, z.name)).flatMap((ns) => [`${fqdn(ns.name)} IN A ${ns.v4}`, ...(ns.v6 ? [`${fqdn(ns.name)} IN AAAA ${ns.v6}`] : [])]),
      ...(ds ? ds.split("\n").map((l) => l.trim()).filter((l) => l.length > 0) : [])
    )
    delegations.set(parent, lines)
  }
  const anchorsFile = join(dir, "anchors.txt")
  writeFileSync(anchorsFile, `; the private root of the audit world\n${anchor}\n`)

  const nsdConf = join(dir, "nsd.conf")
  writeFileSync(nsdConf, [
    "server:",
    ...opts.nsd.map((ip) => `  ip-address: ${ip}@${port}`),
    `  username: ""`, `  chroot: ""`, `  zonesdir: "${dir}"`, `  pidfile: "${dir}/nsd.pid"`, `  database: ""`,
    `  zonelistfile: "${dir}/nsd.zonelist"`, `  xfrdfile: "${dir}/nsd.xfrd"`, `  xfrdir: "${dir}"`, `  logfile: "${dir}/nsd.log"`,
    "  server-count: 1", "  verbosity: 1", "  refuse-any: yes",
    "remote-control:", "  control-enable: no",
    ...Object.entries(served).flatMap(([zone, file]) => ["zone:", `  name: "${fqdn(zone)}"`, `  zonefile: "${file}"`])
  ].join("\n") + "\n")
  const root = zones.find((z) => z.name === "")!
  const unboundConf = join(dir, "unbound.conf")
  writeFileSync(unboundConf, [
    "server:",
    `  interface: ${opts.resolver}`, `  port: ${port}`, "  do-ip6: no", "  interface-automatic: no",
    "  access-control: 127.0.0.0/8 allow", `  username: ""`, `  chroot: ""`, `  directory: "${dir}"`,
    `  pidfile: "${dir}/unbound.pid"`, "  use-syslog: no", `  logfile: "${dir}/unbound.log"`, "  do-not-query-localhost: no",
    `  module-config: "iterator"`, "  num-threads: 1", "  so-reuseport: no", "  qname-minimisation: no", "  minimal-responses: no",
    "  cache-max-ttl: 5", "  cache-max-negative-ttl: 5", "  infra-host-ttl: 5", "  verbosity: 1",
    "stub-zone:", '  name: "."', `  stub-addr: ${opts.rootHint ?? root.nameservers[0].v4}@${port}`, "  stub-prime: no",
    "remote-control:", "  control-enable: no"
  ].join("\n") + "\n")

  const procs: Array<ChildProcess> = []
  const start = (cmd: string, args: Array<string>, name: string) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] })
    let err = ""
    p.stderr?.on("data", (d) => { err += d })
    p.on("exit", (code) => { if (code) console.error(`${name} exited ${code}: ${err}`) })
    procs.push(p)
  }
  start(BIN.nsd(), ["-d", "-c", nsdConf], "nsd")
  start(BIN.unbound(), ["-d", "-c", unboundConf], "unbound")
  const stop = async () => {
    for (const p of procs) if (p.exitCode === null) p.kill("SIGTERM")
    await Promise.all(procs.map((p) => (p.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => {
      const t = setTimeout(() => { p.kill("SIGKILL"); r() }, 3000)
      p.once("exit", () => { clearTimeout(t); r() })
    }))))
  }
  try {
    for (const ip of opts.nsd) await waitUdp(ip, port, ".")
    await waitUdp(opts.resolver, port, ".")
  } catch (e) {
    const logs = readdirSync(dir).filter((f) => f.endsWith(".log")).map((f) => `${f}: ${readFileSync(join(dir, f), "utf8")}`).join("\n")
    await stop()
    throw new Error(`${(e as Error).message}\n${logs}`)
  }
  return { dir, anchorsFile, resolver: `${opts.resolver}:${port}`, stop }
}
