/** Shared by the two-instance monitor tests (SQLite: test/monitors/instances.test.ts; PostgreSQL: test/multi/monitors.test.ts). */
import { expect } from "bun:test"
import type { TestService } from "./service"

/** A loopback origin that counts the requests it gets, by path. */
export const countingOrigin = () => {
  const hits = new Map<string, number>()
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const path = new URL(req.url).pathname
      hits.set(path, (hits.get(path) ?? 0) + 1)
      return new Response("ok")
    }
  })
  return { server, hits }
}

/** Creates `n` one-second http_check monitors on `/m0` … of the origin; returns their ids. */
export const createHttpMonitors = async (svc: TestService, key: string, port: number, n: number): Promise<Array<string>> => {
  const ids: Array<string> = []
  for (let i = 0; i < n; i++) {
    const r = await svc.call("/v1/monitors", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: `m${i}`, kind: "http_check", target: `http://127.0.0.1:${port}/m${i}`, interval_seconds: 1 })
    })
    expect(r.status).toBe(201)
    ids.push(((await r.json()) as any).monitor.id)
  }
  return ids
}
