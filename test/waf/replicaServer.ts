/** One loopback Bun server answering /r/<id> with the replica of that id (test/waf/replicas.ts). */
import { LAYERED, REPLICAS } from "./replicas"

export const startReplicaServer = () =>
  Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const id = new URL(req.url).pathname.split("/")[2]
      const r = REPLICAS.find((x) => x.id === id) ?? LAYERED.find((x) => x.id === id)
      if (!r) return new Response("unknown replica", { status: 500 })
      const headers = new Headers()
      for (const [k, v] of r.headers) headers.append(k, v)
      if ("status" in r) return new Response(r.body, { status: r.status, headers })
      if (!headers.has("content-type")) headers.set("content-type", "text/html")
      return new Response("<html><body>layered</body></html>", { status: 200, headers })
    }
  })
