/**
 * Run inside a location's namespace by test/multi/locations.test.ts: forwards requests arriving
 * on a unix socket (which the test reaches from the root namespace) to the instance listening on
 * 127.0.0.1:<x-forward-port> in this namespace.
 *   bun test/multi/lab/forward.ts <socket>
 */
const [socket] = process.argv.slice(2)
Bun.serve({
  unix: socket,
  fetch: async (req) => {
    const url = new URL(req.url)
    const port = req.headers.get("x-forward-port")
    const headers = new Headers(req.headers)
    headers.delete("x-forward-port")
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer()
    const r = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { method: req.method, headers, body })
    const answer = new Headers(r.headers)
    answer.delete("content-encoding")
    answer.delete("content-length")
    return new Response(await r.arrayBuffer(), { status: r.status, headers: answer })
  }
})
console.log("ready")
