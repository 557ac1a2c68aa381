/**
 * A world of locations for test/multi/locations.test.ts: network namespaces the test creates,
 * each location's own, joined by veth pairs to a hub namespace's bridge on private addresses
 * that exist only inside them (the root namespace gets none). The hub runs the monitor target
 * and webhook receivers (./hub.ts); each location runs `serve` instances with its
 * INSTANCE_LOCATION, and a forwarder (./forward.ts) through which the test calls them. All share
 * one PostgreSQL database through the cluster's unix socket (the file system is shared).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startServe } from "../../support/process"
import { baseEnv, root } from "../support"

const ip = (...args: Array<string>) => {
  const r = spawnSync("ip", args, { encoding: "utf8" })
  if (r.status !== 0) throw new Error(`ip ${args.join(" ")}: ${r.stderr}`)
}

/** Starts `bun <script> ...args` in namespace `ns` and waits for its "ready" line. */
const helper = async (ns: string, script: string, args: ReadonlyArray<string>) => {
  const child = spawn("ip", ["netns", "exec", ns, process.execPath, script, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
  await new Promise<void>((resolve, reject) => {
    let err = ""
    child.stderr!.on("data", (d) => (err += d))
    child.stdout!.once("data", () => resolve())
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}): ${err}`)))
  })
  return child
}

export const HUB = "10.231.0.1"
/** The source address of location number i (0-based). */
export const addressOf = (i: number) => `10.231.0.${11 + i}`

export interface LabInstance {
  readonly location: string
  readonly pid: number
  readonly call: (path: string, init?: RequestInit & { key?: string }) => Promise<Response>
  readonly kill: (signal: NodeJS.Signals) => Promise<void>
}

export const makeWorld = async (locations: ReadonlyArray<string>) => {
  const tag = `dl${process.pid}`
  const dir = mkdtempSync(join(tmpdir(), "di-locations-"))
  const hub = `${tag}hub`
  const control = join(dir, "hub.sock")
  const children: Array<ChildProcess> = []
  const namespaces: Array<string> = []
  const cleanup = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
    for (const ns of namespaces) spawnSync("ip", ["netns", "del", ns])
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    ip("netns", "add", hub)
    namespaces.push(hub)
    ip("-n", hub, "link", "set", "lo", "up")
    ip("-n", hub, "link", "add", "br0", "type", "bridge")
    ip("-n", hub, "addr", "add", `${HUB}/24`, "dev", "br0")
    ip("-n", hub, "link", "set", "br0", "up")
    for (const [i, l] of locations.entries()) {
      const ns = `${tag}${l}`
      ip("netns", "add", ns)
      namespaces.push(ns)
      ip("-n", ns, "link", "set", "lo", "up")
      ip("-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", `h${i}`, "netns", hub)
      ip("-n", ns, "addr", "add", `${addressOf(i)}/24`, "dev", "eth0")
      ip("-n", ns, "link", "set", "eth0", "up")
      ip("-n", hub, "link", "set", `h${i}`, "master", "br0")
      ip("-n", hub, "link", "set", `h${i}`, "up")
    }
    children.push(await helper(hub, "test/multi/lab/hub.ts", [HUB, control]))
    for (const l of locations) children.push(await helper(`${tag}${l}`, "test/multi/lab/forward.ts", [join(dir, `${l}.sock`)]))
  } catch (e) {
    cleanup()
    throw e
  }
  const hubCall = (path: string, init: RequestInit = {}) => fetch(`http://hub${path}`, { ...init, unix: control } as RequestInit)
  return {
    /** The target's URL for `name`, as the locations reach it. */
    target: (name: string) => `http://${HUB}:8080/t/${name}`,
    hook: (name: string) => `http://${HUB}:8080/hook/${name}`,
    failFor: (name: string, addresses: ReadonlyArray<string>) =>
      hubCall(`/fail/${name}`, { method: "PUT", body: JSON.stringify(addresses) }).then((r) => r.json()),
    hits: () => hubCall("/hits").then((r) => r.json() as Promise<Record<string, number>>),
    hooks: (name: string) => hubCall(`/hooks/${name}`).then((r) => r.json() as Promise<Array<{ headers: Record<string, string>; body: any }>>),
    /** Starts a `serve` instance in `location`'s namespace on `databaseUrl`. */
    start: async (location: string, databaseUrl: string, extra: Record<string, string> = {}): Promise<LabInstance> => {
      const s = await startServe("ip", ["netns", "exec", `${tag}${location}`, process.execPath, "src/main.ts", "serve"], {
        cwd: root,
        env: baseEnv(databaseUrl, { INSTANCE_LOCATION: location, ...extra })
      })
      children.push(s.child)
      const socket = join(dir, `${location}.sock`)
      return {
        location,
        pid: s.child.pid!,
        call: (path, init = {}) => {
          const { key, ...rest } = init
          const headers = new Headers(rest.headers)
          if (key !== undefined) headers.set("authorization", `Bearer ${key}`)
          headers.set("x-forward-port", String(s.port))
          return fetch(`http://instance${path}`, { ...rest, headers, unix: socket } as RequestInit)
        },
        kill: async (signal) => {
          if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill(signal)
          await s.exited
        }
      }
    },
    cleanup
  }
}
