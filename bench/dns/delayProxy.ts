/**
 * A DNS proxy that delays every answer: UDP datagrams and TCP streams from `listen` to
 * `target`, each answer held back `delayMs` before it is passed on.
 */
import * as dgram from "node:dgram"
import * as net from "node:net"

export interface DelayProxy { readonly close: () => Promise<void> }

export const startDelayProxy = async (listen: { host: string; port: number }, target: { host: string; port: number }, delayMs: number): Promise<DelayProxy> => {
  const udp = dgram.createSocket("udp4")
  udp.on("message", (msg, client) => {
    const up = dgram.createSocket("udp4")
    const t = setTimeout(() => up.close(), 10_000)
    up.on("message", (answer) => {
      setTimeout(() => udp.send(answer, client.port, client.address), delayMs)
      clearTimeout(t)
      up.close()
    })
    up.on("error", () => {})
    up.send(msg, target.port, target.host)
  })
  await new Promise<void>((r) => udp.bind(listen.port, listen.host, () => r()))
  const sockets = new Set<net.Socket>()
  const tcp = net.createServer((client) => {
    const up = net.connect(target.port, target.host)
    sockets.add(client).add(up)
    client.on("data", (d) => up.write(d))
    up.on("data", (d) => setTimeout(() => !client.destroyed && client.write(d), delayMs))
    const end = () => setTimeout(() => { client.destroy(); up.destroy() }, delayMs + 5)
    client.on("close", end).on("error", end)
    up.on("close", end).on("error", end)
  })
  await new Promise<void>((r) => tcp.listen(listen.port, listen.host, () => r()))
  return {
    close: async () => {
      udp.close()
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => tcp.close(() => r()))
    }
  }
}
