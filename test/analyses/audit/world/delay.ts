/**
 * A proxy that delays every answer by `delayMs`: UDP datagrams and TCP streams from `listen` to
 * `target` (IPv4 or IPv6), each datagram or chunk from the target held back `delayMs` before it
 * is passed on (in order). The benchmark puts one in front of every server of the audit world,
 * so each DNS answer, HTTP answer, TLS flight and SMTP reply arrives 50 ms later.
 */
import * as dgram from "node:dgram"
import * as net from "node:net"

export interface DelayProxy {
  readonly close: () => void
}

export const startDelayProxy = async (listen: string, target: string, port: number, delayMs: number, udp: boolean): Promise<DelayProxy> => {
  const family = net.isIPv6(listen) ? "udp6" : "udp4"
  const sockets = new Set<net.Socket>()
  const tcp = net.createServer((client) => {
    const up = net.connect(port, target)
    sockets.add(client).add(up)
    client.on("data", (d) => up.write(d))
    up.on("data", (d) => setTimeout(() => { if (!client.destroyed) client.write(d) }, delayMs))
    const end = () => setTimeout(() => { client.destroy(); up.destroy() }, delayMs + 5)
    client.on("close", end).on("error", end)
    up.on("close", end).on("error", end)
  })
  await new Promise<void>((r) => tcp.listen(port, listen, () => r()))
  let u: dgram.Socket | null = null
  if (udp) {
    const server = dgram.createSocket(family)
    server.on("message", (msg, client) => {
      const upstream = dgram.createSocket(family)
      const t = setTimeout(() => upstream.close(), 10_000)
      upstream.on("message", (answer) => {
        setTimeout(() => server.send(answer, client.port, client.address), delayMs)
        clearTimeout(t)
        upstream.close()
      })
      upstream.on("error", () => {})
      upstream.send(msg, port, target)
    })
    await new Promise<void>((r) => server.bind(port, listen, () => r()))
    u = server
  }
  return {
    close: () => {
      u?.close()
      for (const s of sockets) s.destroy()
      tcp.close()
    }
  }
}
