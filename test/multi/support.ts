/**
 * Several `serve` processes (`bun src/main.ts serve`, as deployed) on one PostgreSQL database
 * of a throwaway cluster (test/support/postgres.ts).
 */
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"
import { startServe } from "../support/process"

export const root = resolve(import.meta.dir, "../..")

export const baseEnv = (databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_MAX: "5",
  ALLOW_PRIVATE_TARGETS: "true",
  DNS_RESOLVERS: "127.0.0.1:9",
  CT_AGGREGATOR_URL: "http://127.0.0.1:9",
  CT_SOURCES: "crtsh",
  CT_CERTSPOTTER_URL: "http://127.0.0.1:9",
  RDAP_BOOTSTRAP_URL: "http://127.0.0.1:9/rdap/dns.json",
  LOG_ACCESS: "false",
  ...extra
})

export type Instance = Awaited<ReturnType<typeof startInstance>>

export const startInstance = async (databaseUrl: string, extra: Record<string, string> = {}) => {
  const s = await startServe(process.execPath, ["src/main.ts", "serve"], { cwd: root, env: baseEnv(databaseUrl, extra) })
  const url = `http://127.0.0.1:${s.port}`
  return {
    ...s,
    url,
    call: (path: string, init: RequestInit & { key?: string } = {}) => {
      const { key, ...rest } = init
      const headers = new Headers(rest.headers)
      if (key !== undefined) headers.set("authorization", `Bearer ${key}`)
      return fetch(url + path, { ...rest, headers })
    },
    /** SIGTERM and wait for the exit (clean shutdown). */
    stop: async () => {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGTERM")
      return s.exited
    }
  }
}

/** `keys create` through the CLI against the database: the new key. */
export const createKey = (databaseUrl: string, org: string, plan: string): string => {
  const r = spawnSync(process.execPath, ["src/main.ts", "keys", "create", "--org", org, "--plan", plan], {
    cwd: root, env: baseEnv(databaseUrl), encoding: "utf8", timeout: 30_000
  })
  if (r.status !== 0) throw new Error(`keys create failed: ${r.stderr}`)
  return r.stdout.trim().split("\n").pop()!
}

/** Runs `n` requests with at most `concurrency` in flight, alternating between the instances. */
export const spread = async <A>(
  n: number,
  concurrency: number,
  send: (i: number) => Promise<A>
): Promise<Array<A>> => {
  const out = new Array<A>(n)
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) {
      const i = next++
      out[i] = await send(i)
    }
  }))
  return out
}
