/**
 * A recursive resolver as some ISPs run them, for the blocklist tests: a UDP forwarder in front
 * of the lab's Unbound that, when `rewrite` is on, turns every NXDOMAIN answer to an A question
 * into an address of its own (a "search assist" page, 198.51.100.7), the fault that makes a
 * naive DNSBL client see every address as listed. It also records every question it forwards,
 * so a test can count what the service asked.
 */
import * as dgram from "node:dgram"
import type * as net from "node:net"
import * as packet from "dns-packet"

export const REWRITTEN_TO = "198.51.100.7"

export interface ProxyResolver {
  readonly host: string
  readonly port: number
  /** Every question forwarded, as `name TYPE`, in order. */
  readonly asked: Array<string>
  /** Where questions go from now on. */
  upstream: { host: string; port: number }
  readonly stop: () => Promise<void>
}

export const startProxyResolver = async (upstream: { host: string; port: number }, rewrite: boolean): Promise<ProxyResolver> => {
  const asked: Array<string> = []
  const self = { upstream }
  const sock = dgram.createSocket("udp4")
  sock.on("message", (msg, client) => {
    let q: packet.DecodedPacket
    try {
      q = packet.decode(msg)
    } catch {
      return
    }
    const question = q.questions?.[0]
    if (question !== undefined) asked.push(`${question.name.toLowerCase()} ${question.type}`)
    const up = dgram.createSocket("udp4")
    const timer = setTimeout(() => up.close(), 10_000)
    up.on("error", () => {})
    up.on("message", (answer) => {
      clearTimeout(timer)
      up.close()
      let out: Buffer = answer
      if (rewrite && question?.type === "A") {
        const a = packet.decode(answer)
        if (a.rcode === "NXDOMAIN") {
          out = packet.encode({
            type: "response",
            id: a.id,
            flags: (a.flags ?? 0) & ~0x000f, // rcode NOERROR
            questions: a.questions,
            answers: [{ type: "A", name: question.name, ttl: 60, class: "IN", data: REWRITTEN_TO }]
          })
        }
      }
      sock.send(out, client.port, client.address)
    })
    up.send(msg, self.upstream.port, self.upstream.host)
  })
  await new Promise<void>((r) => sock.bind(0, "127.0.0.1", () => r()))
  const port = (sock.address() as net.AddressInfo).port
  return Object.assign(self, { host: "127.0.0.1", port, asked, stop: () => new Promise<void>((r) => sock.close(() => r())) })
}
