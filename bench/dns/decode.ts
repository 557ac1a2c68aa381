/**
 * What the typed boundary costs over dns-packet: the resolver's `decodeAnswer` (dns-packet's
 * decode, the id and question checks, every record checked and typed by fromPacket.ts) against
 * dns-packet's decode alone, on the same bytes, side by side in one run: a signed A answer
 * (2 A, 1 RRSIG, OPT), an MX/TXT answer, an HTTPS answer (SVCB decoded from raw bytes), and one
 * AXFR message of 1,000 A records with compressed owners. Prints microseconds per message and
 * the ratio typed / raw.
 *   ./node_modules/.bin/bun bench/dns/decode.ts
 */
import * as packet from "dns-packet"
import { decodeAnswer, type DnsQuestion } from "../../src/adapters/dns/DnsResolver"

const sig = { typeCovered: "A", algorithm: 13, labels: 2, originalTTL: 300, expiration: 4000000000, inception: 1700000000, keyTag: 1234, signersName: "example.test", signature: Buffer.alloc(64, 1) }
const https = Buffer.from("0001" + "00" + "0001" + "0006" + "026832026833" + "0003" + "0002" + "20fb" + "0004" + "0004" + "c0000201", "hex")
const messages: Record<string, readonly [DnsQuestion, Buffer]> = {
  "signed A": [{ name: "www.example.test", type: "A" }, packet.encode({
    type: "response", id: 1, questions: [{ type: "A", name: "www.example.test" }],
    answers: [
      { type: "A", name: "www.example.test", ttl: 300, data: "192.0.2.1" },
      { type: "A", name: "www.example.test", ttl: 300, data: "192.0.2.2" },
      { type: "RRSIG", name: "www.example.test", ttl: 300, data: sig }
    ],
    additionals: [{ type: "OPT", name: ".", udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: packet.DNSSEC_OK, flag_do: true, options: [] }]
  })],
  "MX + TXT": [{ name: "example.test", type: "MX" }, packet.encode({
    type: "response", id: 1, questions: [{ type: "MX", name: "example.test" }],
    answers: [
      { type: "MX", name: "example.test", ttl: 300, data: { preference: 10, exchange: "mx1.example.test" } },
      { type: "MX", name: "example.test", ttl: 300, data: { preference: 20, exchange: "mx2.example.test" } },
      { type: "TXT", name: "example.test", ttl: 300, data: ["v=spf1 include:_spf.example.test -all"] }
    ]
  })],
  // dns-packet types HTTPS as raw bytes (its @types do not list it): the answer written by hand.
  HTTPS: [{ name: "example.test", type: "HTTPS" }, Buffer.concat([
    Buffer.from("000181800001000100000000", "hex"),
    Buffer.from([7, ...Buffer.from("example"), 4, ...Buffer.from("test"), 0, 0, 65, 0, 1]),
    Buffer.from([0xc0, 12, 0, 65, 0, 1, 0, 0, 1, 44, 0, https.length]), https
  ])],
  // dns-packet writes no compression; a real AXFR message compresses every owner: build that.
  "AXFR 1000 A": [{ name: "axfr.test", type: "AXFR" }, (() => {
    const head = Buffer.from([0, 1, 0x84, 0, 0, 1, 0x03, 0xe8, 0, 0, 0, 0])
    const q = Buffer.concat([Buffer.from([4]), Buffer.from("axfr"), Buffer.from([4]), Buffer.from("test"), Buffer.from([0, 0, 252, 0, 1])])
    const rrs = Array.from({ length: 1000 }, (_, i) => {
      const label = Buffer.from(`host${i}`)
      return Buffer.concat([Buffer.from([label.length]), label, Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 14, 16, 0, 4, 10, 0, i >> 8, i & 255])])
    })
    return Buffer.concat([head, q, ...rrs])
  })()]
}
const server = { host: "127.0.0.1", port: 53 }

const time = (f: () => unknown, n: number) => {
  for (let i = 0; i < Math.min(n, 2000); i++) f()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) f()
  return ((performance.now() - t0) * 1000) / n
}

for (const [label, [q, msg]] of Object.entries(messages)) {
  const id = msg.readUInt16BE(0)
  const typed = () => decodeAnswer(msg, q, id, server)
  if (typed().answers.length !== packet.decode(msg).answers!.length) throw new Error(`${label}: typed and raw disagree`)
  const n = msg.length > 10_000 ? 300 : 50_000
  // Alternate the two a few rounds, keep each one's best round.
  const ours: Array<number> = []
  const theirs: Array<number> = []
  for (let round = 0; round < 5; round++) {
    ours.push(time(typed, n))
    theirs.push(time(() => packet.decode(msg), n))
  }
  const a = Math.min(...ours)
  const b = Math.min(...theirs)
  console.log(`${label.padEnd(14)} ${msg.length} B  typed ${a.toFixed(2)} µs  dns-packet ${b.toFixed(2)} µs  ratio ${(a / b).toFixed(2)}`)
}
