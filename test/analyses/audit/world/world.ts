/**
 * The audit world from outside: starts world/inside.ts in a network namespace of its own
 * (`unshare --net`, as root) and bridges each service inside to a TCP port on 127.0.0.1 here, so
 * tests, the MCP SDK client and Chromium reach it as any loopback service. Stopping closes the
 * child's stdin; the namespace goes with the child.
 */
import { spawn } from "node:child_process"
import * as net from "node:net"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { tempDir } from "../../../support/tmp"

export type ServiceName = "main" | "faulty" | "broken" | "guarded"

export interface AuditWorld {
  /** http://127.0.0.1:<port> of each service. */
  readonly url: Readonly<Record<ServiceName, string>>
  readonly keys: {
    readonly developer: string
    readonly pro: string
    readonly free: string
    readonly faulty: string
    readonly broken: string
    readonly brokenPro: string
    readonly guarded: string
  }
  /** GET or POST against a service, with a Bearer key. */
  readonly call: (service: ServiceName, path: string, key: string, init?: RequestInit) => Promise<Response>
  readonly stop: () => Promise<void>
}

const bridge = (socketPath: string) =>
  new Promise<net.Server>((resolve) => {
    const server = net.createServer((client) => {
      const up = net.connect(socketPath)
      client.pipe(up).pipe(client)
      client.on("error", () => up.destroy())
      up.on("error", () => client.destroy())
    })
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

export const startAuditWorld = async (): Promise<AuditWorld> => {
  const dir = tempDir("di-audit-world-")
  const child = spawn("unshare", ["--net", "--", process.execPath, join(import.meta.dir, "inside.ts")], {
    env: { ...process.env, AUDIT_WORLD_DIR: dir },
    stdio: ["pipe", "pipe", "pipe"]
  })
  let stderr = ""
  child.stderr.on("data", (d) => { stderr += d })
  const ready = await new Promise<{ sockets: Record<ServiceName, string>; keys: AuditWorld["keys"] }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    const timer = setTimeout(() => reject(new Error(`the audit world did not start within 180 s: ${stderr}`)), 180_000)
    lines.on("line", (line) => {
      if (!line.startsWith("{")) return
      clearTimeout(timer)
      resolve(JSON.parse(line))
    })
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`the audit world exited ${code}: ${stderr}`)) })
  })
  const bridges = await Promise.all((Object.entries(ready.sockets) as Array<[ServiceName, string]>).map(async ([name, path]) => [name, await bridge(path)] as const))
  const url = Object.fromEntries(bridges.map(([name, s]) => [name, `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`])) as Record<ServiceName, string>
  return {
    url,
    keys: ready.keys,
    call: (service, path, key, init = {}) => {
      const headers = new Headers(init.headers)
      headers.set("authorization", `Bearer ${key}`)
      return fetch(url[service] + path, { ...init, headers })
    },
    stop: async () => {
      for (const [, s] of bridges) s.close()
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once("exit", () => r())))
      child.stdin.end()
      const t = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(t)
    }
  }
}

let shared: Promise<AuditWorld> | undefined

/**
 * One world for every test file of a run (bun test runs them in one process): it goes when the
 * run does (the child stops when its stdin closes).
 */
export const sharedAuditWorld = (): Promise<AuditWorld> => (shared ??= startAuditWorld())
