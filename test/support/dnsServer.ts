/**
 * A small authoritative-style DNS server on loopback (UDP and TCP, dns-packet), for tests
 * that need names to resolve to chosen answers. Zone tests use real NSD/Knot/Unbound instead.
 */
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as packet from "dns-packet"

export type Records = Record<string, Partial<Record<string, ReadonlyArray<unknown>>>>

export interface TestDnsServer {
  readonly port: number
  readonly address: string
  /** Every question received, as "name TYPE". */
  readonly queries: Array<string>
  /** The questions that came over TCP, as "name TYPE". */
  readonly tcpQueries: Array<string>
  readonly set: (name: string, type: string, data: ReadonlyArray<unknown>) => void
  readonly close: () => Promise<void>
}

/**
 * What a working recursive resolver answers for the root zone (its NS and a DNSKEY; the key is
 * not the IANA one, so DNSSEC still fails at the anchor as before). Zone Hygiene needs it: a
 * resolver that cannot answer for "." is the service's failure, 502 (docs/operations/zone-hygiene.md, "Errors").
 */
export const ROOT_RECORDS: Records = {
  ".": {
    NS: ["a.root-servers.net"],
    DNSKEY: [{ flags: 257, algorithm: 8, key: Buffer.from("AwEAAa96jeuknZlaeSrvyAJj6ZHv28hhOKkx3rLGXVaC6rXTsDc449/cidltpkyGwCJNnOAlFNKF2jBosZBU5eeHspaQWOmOElZsjICMQMC3aeHbGiShvZsx4wMYSjH8e7Vrhbu6irwCzVBApESjbUdpWWmEnhathWu1jo+siFUiRAAxm9qyJNg/wOZqqzL/dL/q8PkcRU5oUKEpUge71M3ej2/7CPqpdVwuMoTvoB+ZOT4YeGyxMvHmbrxlFzGOHOijtzN+u1TQNatX2XBuzZNQ1K+s2CXkPIZo7s6JgZyvaBevYtxPvYLw4z9mR7K2vaF18UYH9Z9GNUUeayffKC73PYc=", "base64") }]
  }
}

export const startDnsServer = async (records: Records = {}, host = "127.0.0.1"): Promise<TestDnsServer> => {
  const zone = new Map<string, Map<string, ReadonlyArray<unknown>>>()
  const set = (name: string, type: string, data: ReadonlyArray<unknown>) => {
    const key = name.toLowerCase().replace(/\.$/, "")
    if (!zone.has(key)) zone.set(key, new Map())
    zone.get(key)!.set(type.toUpperCase(), data)
  }
  for (const [name, types] of Object.entries(records)) {
    for (const [type, data] of Object.entries(types)) set(name, type, data ?? [])
  }
  const queries: Array<string> = []
  const tcpQueries: Array<string> = []
  const answer = (msg: Buffer, overTcp = false): Buffer => {
    const q = packet.decode(msg)
    const question = q.questions?.[0]
    if (!question) return packet.encode({ type: "response", id: q.id, flags: packet.RECURSION_AVAILABLE, rcode: "FORMERR" } as any)
    queries.push(`${question.name} ${question.type}`)
    if (overTcp) tcpQueries.push(`${question.name} ${question.type}`)
    const name = question.name.toLowerCase().replace(/\.$/, "")
    const entry = zone.get(name)
    const data = entry?.get(String(question.type)) ?? []
    return packet.encode({
      type: "response",
      id: q.id,
      // dns-packet encodes the rcode only from the low four bits of flags (3 = NXDOMAIN).
      flags: packet.RECURSION_AVAILABLE | packet.AUTHORITATIVE_ANSWER | (entry ? 0 : 3),
      questions: [question],
      answers: data.map((d) => ({ name: question.name, type: question.type, class: "IN", ttl: 300, data: d }))
    } as any)
  }
  const udp = dgram.createSocket("udp4")
  udp.on("message", (msg, rinfo) => {
    try {
      udp.send(answer(msg), rinfo.port, rinfo.address)
    } catch {
      // malformed query: ignore, as a real server might
    }
  })
  await new Promise<void>((resolve) => udp.bind(0, host, () => resolve()))
  const port = udp.address().port
  const tcp = net.createServer((sock) => {
    let buf: Buffer = Buffer.alloc(0)
    sock.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const n = buf.readUInt16BE(0)
        const out = answer(buf.subarray(2, 2 + n), true)
        buf = buf.subarray(2 + n)
        const len = Buffer.alloc(2)
        len.writeUInt16BE(out.length)
        sock.write(Buffer.concat([len, out]))
      }
    })
    sock.on("error", () => {})
  })
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject)
    tcp.listen(port, host, () => resolve())
  }).catch(() => undefined) // TCP on the same port is best effort
  return {
    port,
    address: host,
    queries,
    tcpQueries,
    set,
    close: async () => {
      udp.close()
      await new Promise<void>((r) => tcp.close(() => r()))
    }
  }
}
