/**
 * Webhook receivers on loopback for the alert tests: a Bun server that records every delivery
 * (raw body and headers, for the standardwebhooks verifier), and a raw TCP receiver that
 * trickles its answer a byte at a time.
 */
import { createServer, type Socket } from "node:net"

export interface Received {
  readonly event: string
  readonly headers: Record<string, string>
  readonly raw: string
  readonly body: any
  readonly at: number
}

/** A receiver that answers 500 to its first `fail` deliveries (or while `fail()` holds), then 204. */
export const receiver = (fail: number | (() => boolean) = 0) => {
  const received: Array<Received> = []
  let seen = 0
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      const raw = await req.text()
      received.push({
        event: req.headers.get("x-domain-intel-event") ?? "",
        headers: Object.fromEntries(req.headers.entries()),
        raw,
        body: JSON.parse(raw),
        at: Date.now()
      })
      seen++
      const failing = typeof fail === "number" ? seen <= fail : fail()
      return new Response(null, { status: failing ? 500 : 204 })
    }
  })
  return { server, received, url: `http://127.0.0.1:${server.port}/hooks/alerts?token=abc` }
}

/**
 * A receiver that reads the request and then answers `HTTP/1.1 200 OK…` one byte every
 * `everyMs`: each byte resets an idle timer, so only a total deadline ends the exchange.
 */
export const trickler = (everyMs = 2_000) => {
  const connections: Array<{ bytesSent: number; closedAt: number | null; openedAt: number }> = []
  const sockets = new Set<Socket>()
  const answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
  const server = createServer((socket) => {
    sockets.add(socket)
    const conn = { bytesSent: 0, closedAt: null as number | null, openedAt: Date.now() }
    connections.push(conn)
    let timer: ReturnType<typeof setInterval> | undefined
    socket.once("data", () => {
      timer = setInterval(() => {
        if (conn.bytesSent >= answer.length) return
        socket.write(answer[conn.bytesSent++])
      }, everyMs)
    })
    socket.on("error", () => {})
    socket.on("close", () => {
      conn.closedAt = Date.now()
      if (timer) clearInterval(timer)
      sockets.delete(socket)
    })
  })
  const ready = new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)))
  return {
    connections,
    ready,
    stop: () => {
      for (const s of sockets) s.destroy()
      server.close()
    }
  }
}
