/**
 * Three broken recursive resolvers, each a real Unbound on loopback, for the tests of the
 * service's own resolver health (docs/dns.md, "Own resolver health"):
 * - `nxdomain`: a filtering resolver that answers NXDOMAIN to everything, the root included
 *   (`local-zone: "." always_nxdomain`);
 * - `silent`: one that never answers (`access-control: … deny` drops every query);
 * - `servfail`: a validating resolver whose trust anchor for the root cannot be met (its upstream
 *   is the `nxdomain` one, which has no root keys), so it answers SERVFAIL to everything at once.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as dgram from "node:dgram"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import type * as net from "node:net"
import { createServer as netServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as packet from "dns-packet"
import { BIN } from "./lab"

export type BrokenKind = "nxdomain" | "silent" | "servfail"

export interface BrokenResolvers {
  /** "127.0.0.1:<port>" of each broken resolver. */
  readonly address: Readonly<Record<BrokenKind, { readonly host: string; readonly port: number }>>
  readonly stop: () => Promise<void>
}

/** A port free on 127.0.0.1 for both UDP and TCP now (Unbound binds both). */
const freePort = async (): Promise<number> => {
  for (;;) {
    const s = dgram.createSocket("udp4")
    await new Promise<void>((r) => s.bind(0, "127.0.0.1", () => r()))
    const port = (s.address() as net.AddressInfo).port
    const tcpFree = await new Promise<boolean>((resolve) => {
      const srv = netServer()
      srv.once("error", () => resolve(false))
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)))
    })
    s.close()
    if (tcpFree) return port
  }
}

/** The IANA root KSK's DS (key tag 20326): the `nxdomain` upstream can never produce its key. */
const ROOT_DS = ". DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D"

const conf = (dir: string, name: string, port: number, extra: ReadonlyArray<string>, modules = "iterator") => {
  const file = join(dir, `${name}.conf`)
  writeFileSync(file, [
    "server:",
    "  interface: 127.0.0.1",
    `  port: ${port}`,
    "  do-ip6: no",
    "  interface-automatic: no",
    `  username: ""`,
    `  chroot: ""`,
    `  directory: "${dir}"`,
    `  pidfile: "${dir}/${name}.pid"`,
    "  use-syslog: no",
    `  logfile: "${dir}/${name}.log"`,
    `  module-config: "${modules}"`,
    "  num-threads: 1",
    "  so-reuseport: no",
    "  do-not-query-localhost: no",
    "  verbosity: 1",
    ...extra,
    "remote-control:",
    "  control-enable: no"
  ].join("\n") + "\n")
  return file
}

/** Waits until the Unbound logged its start (the silent one answers nothing to probe with). */
const started = async (dir: string, name: string, p: ChildProcess, ms = 20_000) => {
  const deadline = Date.now() + ms
  const log = () => {
    try {
      return readFileSync(join(dir, `${name}.log`), "utf8")
    } catch {
      return "" // not written yet
    }
  }
  while (Date.now() < deadline) {
    if (log().includes("start of service")) return
    if (p.exitCode !== null) throw new Error(`unbound ${name} exited ${p.exitCode}: ${log()}`)
    await Bun.sleep(50)
  }
  throw new Error(`unbound ${name} did not start within ${ms} ms: ${log()}`)
}

/** One query over UDP: the rcode, or "no answer" after `ms`. */
export const ask = (port: number, name: string, type: string, ms = 1000): Promise<string> =>
  new Promise((resolve) => {
    const s = dgram.createSocket("udp4")
    const t = setTimeout(() => { s.close(); resolve("no answer") }, ms)
    s.on("message", (m) => { clearTimeout(t); s.close(); resolve(String(packet.decode(m).rcode)) })
    s.send(packet.encode({ type: "query", id: 7, flags: packet.RECURSION_DESIRED, questions: [{ type: type as any, name, class: "IN" }] }), port, "127.0.0.1")
  })

export const startBrokenResolvers = async (): Promise<BrokenResolvers> => {
  const dir = mkdtempSync(join(tmpdir(), "di-broken-"))
  const procs: Array<ChildProcess> = []
  const stopOne = (p: ChildProcess) =>
    p.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => {
      const t = setTimeout(() => { p.kill("SIGKILL"); r() }, 3000)
      p.once("exit", () => { clearTimeout(t); r() })
      p.kill("SIGTERM")
    })
  /** Starts one Unbound on a free port; another port when the first is taken meanwhile. */
  const run = async (name: string, extra: ReadonlyArray<string>, modules?: string): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const p = spawn(BIN.unbound(), ["-d", "-c", conf(dir, name, port, extra, modules)], { stdio: ["ignore", "ignore", "ignore"] })
      procs.push(p)
      try {
        await started(dir, name, p)
        return port
      } catch (e) {
        await stopOne(p)
        rmSync(join(dir, `${name}.log`), { force: true })
        if (attempt === 3) throw e
      }
    }
  }
  const stop = async () => {
    await Promise.all(procs.map(stopOne))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const nx = await run("nxdomain", ["  access-control: 127.0.0.0/8 allow", `  local-zone: "." always_nxdomain`])
    const [silent, sf] = await Promise.all([
      run("silent", ["  access-control: 127.0.0.0/8 deny"]),
      run("servfail", [
        "  access-control: 127.0.0.0/8 allow",
        `  trust-anchor: "${ROOT_DS}"`,
        "stub-zone:",
        `  name: "."`,
        `  stub-addr: 127.0.0.1@${nx}`,
        "  stub-prime: no"
      ], "validator iterator")
    ])
    const at = (port: number) => ({ host: "127.0.0.1", port })
    return { address: { nxdomain: at(nx), silent: at(silent), servfail: at(sf) }, stop }
  } catch (e) {
    await stop()
    throw e
  }
}
