/**
 * The lab's shared network (run inside the hub namespace by test/multi/locations.test.ts): on
 * TCP at HUB_ADDRESS:8080 a monitor target and webhook receivers, reachable from every location's
 * namespace; on a unix socket (the test, in the root namespace, reaches it there) the controls.
 * - `GET /t/<name>`: 500 when the caller's source address is in the target's failing set, else
 *   200; hits counted by target and source address.
 * - `POST /hook/<name>`: a webhook receiver; deliveries kept in order.
 * Controls: `PUT /fail/<name>` with a JSON array of addresses; `GET /hits`; `GET /hooks/<name>`.
 *   bun test/multi/lab/hub.ts <address> <control socket>
 */
const [address, control] = process.argv.slice(2)
const failing = new Map<string, Set<string>>()
const hits = new Map<string, number>()
const hooks = new Map<string, Array<{ headers: Record<string, string>; body: unknown }>>()

Bun.serve({
  hostname: address,
  port: 8080,
  fetch: async (req, server) => {
    const path = new URL(req.url).pathname
    const from = server.requestIP(req)?.address ?? "?"
    const target = /^\/t\/([\w-]+)$/.exec(path)
    if (target) {
      const key = `${target[1]}|${from}`
      hits.set(key, (hits.get(key) ?? 0) + 1)
      return new Response(failing.get(target[1])?.has(from) ? "failing here" : "ok", { status: failing.get(target[1])?.has(from) ? 500 : 200 })
    }
    const hook = /^\/hook\/([\w-]+)$/.exec(path)
    if (hook && req.method === "POST") {
      const list = hooks.get(hook[1]) ?? []
      list.push({ headers: Object.fromEntries(req.headers), body: await req.json() })
      hooks.set(hook[1], list)
      return new Response(null, { status: 204 })
    }
    return new Response("not found", { status: 404 })
  }
})

Bun.serve({
  unix: control,
  fetch: async (req) => {
    const path = new URL(req.url).pathname
    const fail = /^\/fail\/([\w-]+)$/.exec(path)
    if (fail && req.method === "PUT") {
      failing.set(fail[1], new Set((await req.json()) as Array<string>))
      return Response.json({ ok: true })
    }
    if (path === "/hits") return Response.json(Object.fromEntries(hits))
    const got = /^\/hooks\/([\w-]+)$/.exec(path)
    if (got) return Response.json(hooks.get(got[1]) ?? [])
    return new Response("not found", { status: 404 })
  }
})
console.log("ready")
