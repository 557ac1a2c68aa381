/**
 * DnsResolver against in-process dns-packet servers producing faults real servers do not:
 * silence, garbage, truncation loops, endless transfers; and typed rcodes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Duration, Effect, Either, Fiber, TestClock, TestContext } from "effect"
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as packet from "dns-packet"
import { axfr } from "../../src/adapters/dns/axfr"
import { makeResolver, requireNoError } from "../../src/adapters/dns/DnsResolver"

type Mode = "silent" | "garbage" | "truncate" | "servfail" | "refused" | "nxdomain" | "wrongid" | "wrongname" | "wrongtype" | "ok"

interface Fault { port: number; close: () => Promise<void>; tcpHits: () => number }

const reply = (q: packet.Packet, mode: Mode, tcp: boolean): Buffer | null => {
  const question = q.questions![0]
  const base = { type: "response" as const, id: q.id, questions: q.questions }
  switch (mode) {
    case "silent": return null
    case "garbage": return Buffer.from([q.id! >> 8, q.id! & 0xff, 0x81, 0x80, 0, 1, 0, 5, 0, 0, 0, 0, 0xc0, 0xff, 0xff])
    case "wrongid": return packet.encode({ ...base, id: (q.id! + 1) & 0xffff, flags: packet.RECURSION_AVAILABLE, answers: [{ type: "A", name: question.name, data: "10.9.9.9" }] })
    case "wrongname": return packet.encode({ ...base, questions: [{ ...question, name: `evil.${question.name}` }], flags: packet.RECURSION_AVAILABLE, answers: [{ type: "A", name: `evil.${question.name}`, data: "10.9.9.9" }] })
    case "wrongtype": return packet.encode({ ...base, questions: [{ ...question, type: "TXT" }], flags: packet.RECURSION_AVAILABLE, answers: [{ type: "TXT", name: question.name, data: "spoofed" }] })
    case "truncate": return packet.encode({ ...base, flags: packet.TRUNCATED_RESPONSE, answers: [] } as any)
    case "servfail": return packet.encode({ ...base, flags: 2 } as any)
    case "refused": return packet.encode({ ...base, flags: 5 } as any)
    case "nxdomain": return packet.encode({ ...base, flags: packet.RECURSION_AVAILABLE | 3 } as any)
    case "ok": return packet.encode({ ...base, flags: packet.RECURSION_AVAILABLE, answers: [{ type: "A", name: question.name, data: tcp ? "127.0.0.2" : "127.0.0.1" }] })
  }
}

type TcpMode = Mode | "close" | "endless-axfr" | "garbage-axfr" | "spoof-then-ok"

/** UDP and TCP on the same port: retried when the TCP side of a random UDP port is taken. */
const startFault = async (mode: Mode, tcpMode: TcpMode = mode): Promise<Fault> => {
  for (let i = 0; ; i++) {
    try {
      return await startFaultOnce(mode, tcpMode)
    } catch (e) {
      if (i > 20) throw e
    }
  }
}

const startFaultOnce = async (mode: Mode, tcpMode: TcpMode): Promise<Fault> => {
  const udp = dgram.createSocket("udp4")
  await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()))
  const port = (udp.address() as net.AddressInfo).port
  udp.on("message", (msg, rinfo) => {
    let q: packet.Packet
    try { q = packet.decode(msg) } catch { return }
    const out = reply(q, mode, false)
    if (out) udp.send(out, rinfo.port, rinfo.address)
  })
  let hits = 0
  const sockets = new Set<net.Socket>()
  const tcp = net.createServer((s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
    s.on("error", () => {})
    hits++
    let buf = Buffer.alloc(0)
    s.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return
      const q = packet.decode(buf.subarray(2, 2 + buf.readUInt16BE(0)))
      const frame = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b])
      if (tcpMode === "close") return s.destroy()
      if (tcpMode === "endless-axfr") {
        const soa = { type: "SOA", name: "x.test", data: { mname: "ns.x.test", rname: "h.x.test", serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1 } }
        s.write(frame(packet.encode({ type: "response", id: q.id, flags: packet.AUTHORITATIVE_ANSWER, questions: q.questions, answers: [soa as any] })))
        const t = setInterval(() => {
          if (s.destroyed) return clearInterval(t)
          s.write(frame(packet.encode({ type: "response", id: q.id, flags: packet.AUTHORITATIVE_ANSWER, questions: q.questions, answers: [{ type: "A", name: "a.x.test", data: "127.0.0.1" }] })))
        }, 20)
        return
      }
      if (tcpMode === "spoof-then-ok") return void s.write(Buffer.concat([frame(reply(q, "wrongname", true)!), frame(reply(q, "ok", true)!)]))
      if (tcpMode === "garbage-axfr") return void s.write(frame(Buffer.from([q.id! >> 8, q.id! & 0xff, 0x84, 0, 0, 1, 0, 9, 0, 0, 0, 0, 1, 2, 3])))
      const out = reply(q, tcpMode as Mode, true)
      if (out) s.write(frame(out))
    })
  })
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", (e) => {
      udp.close()
      reject(e)
    })
    tcp.listen(port, "127.0.0.1", () => resolve())
  })
  return {
    port,
    tcpHits: () => hits,
    close: async () => {
      udp.close()
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => tcp.close(() => r()))
    }
  }
}

const servers: Array<Fault> = []
const fault = async (mode: Mode, tcpMode?: Parameters<typeof startFault>[1]) => {
  const f = await startFault(mode, tcpMode)
  servers.push(f)
  return f
}
afterAll(async () => {
  for (const s of servers) await s.close()
})

const run = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(e))
const srv = (port: number) => ({ host: "127.0.0.1", port })

describe("DnsResolver faults", () => {
  test("silence is a DnsTimeout", async () => {
    const f = await fault("silent")
    const r = await run(makeResolver([srv(f.port)], 300).query({ name: "a.test", type: "A" }))
    expect(Either.isLeft(r) && r.left._tag).toBe("DnsTimeout")
  })

  test("garbage is DnsMalformed, never a crash", async () => {
    const f = await fault("garbage")
    const r = await run(makeResolver([srv(f.port)], 300).query({ name: "a.test", type: "A" }))
    expect(Either.isLeft(r) && r.left._tag).toBe("DnsMalformed")
  })

  test("an answer with the wrong id is ignored (spoof) and the query times out as malformed", async () => {
    const f = await fault("wrongid")
    const r = await run(makeResolver([srv(f.port)], 300).query({ name: "a.test", type: "A" }))
    expect(Either.isLeft(r) && r.left._tag).toBe("DnsMalformed")
  })

  test("truncation switches to TCP once; a server truncating on TCP too does not loop", async () => {
    const ok = await fault("truncate", "ok")
    const a = await run(makeResolver([srv(ok.port)], 1000).query({ name: "a.test", type: "A" }))
    expect(Either.isRight(a) && (a.right.answers[0] as any).data).toBe("127.0.0.2")
    const loop = await fault("truncate", "truncate")
    const b = await run(makeResolver([srv(loop.port)], 1000).query({ name: "a.test", type: "A" }))
    expect(Either.isRight(b) && b.right.flags.tc).toBe(true)
    expect(loop.tcpHits()).toBe(1)
    const closing = await fault("truncate", "close")
    const c = await run(makeResolver([srv(closing.port)], 1000).query({ name: "a.test", type: "A" }))
    expect(Either.isLeft(c) && c.left._tag).toBe("DnsFailure")
  })

  test("SERVFAIL and REFUSED from every resolver are typed DnsRcode; the next resolver is tried", async () => {
    const sf = await fault("servfail")
    const rf = await fault("refused")
    const ok = await fault("ok")
    const a = await run(makeResolver([srv(sf.port), srv(rf.port)], 500).query({ name: "a.test", type: "A" }))
    expect(Either.isLeft(a) && a.left._tag === "DnsRcode" && a.left.rcode).toBe("REFUSED")
    const b = await run(makeResolver([srv(sf.port), srv(ok.port)], 500).query({ name: "a.test", type: "A" }))
    expect(Either.isRight(b) && b.right.rcode).toBe("NOERROR")
  })

  test("NXDOMAIN is data for query, a DnsRcode through requireNoError", async () => {
    const nx = await fault("nxdomain")
    const r = await run(makeResolver([srv(nx.port)], 500).query({ name: "a.test", type: "A" }).pipe(Effect.flatMap((a) => requireNoError(a, "a.test"))))
    expect(Either.isLeft(r) && r.left._tag === "DnsRcode" && r.left.rcode).toBe("NXDOMAIN")
  })

  test("lookupAddresses keeps working (used by the target guard)", async () => {
    const ok = await fault("ok")
    const r = await run(makeResolver([srv(ok.port)], 500).lookupAddresses("a.test"))
    expect(Either.isRight(r) && r.right).toContain("127.0.0.1")
  })

  test("AXFR: an endless transfer times out, garbage is malformed, a refusal is DnsRcode", async () => {
    const endless = await fault("ok", "endless-axfr")
    const a = await run(axfr("x.test", srv(endless.port), 500))
    expect(Either.isLeft(a) && a.left._tag).toBe("DnsTimeout")
    const garbage = await fault("ok", "garbage-axfr")
    const b = await run(axfr("x.test", srv(garbage.port), 500))
    expect(Either.isLeft(b) && b.left._tag).toBe("DnsMalformed")
    const refused = await fault("ok", "refused")
    const c = await run(axfr("x.test", srv(refused.port), 500))
    expect(Either.isLeft(c) && c.left._tag === "DnsRcode" && c.left.rcode).toBe("REFUSED")
    const bounded = await run(axfr("x.test", srv(endless.port), 5000, 20))
    expect(Either.isLeft(bounded) && bounded.left._tag).toBe("DnsFailure")
  })
})

describe("DnsResolver against spoofing", () => {
  test("an answer echoing another name or type is dropped; the query times out as malformed", async () => {
    for (const mode of ["wrongname", "wrongtype"] as const) {
      const f = await fault(mode)
      const r = await run(makeResolver([srv(f.port)], 300).query({ name: "a.test", type: "A" }))
      expect({ mode, tag: Either.isLeft(r) && r.left._tag, reason: Either.isLeft(r) && (r.left as any).reason }).toEqual({ mode, tag: "DnsMalformed", reason: "answer question does not match the query" })
    }
  })

  test("over TCP a mismatched message is dropped and the real answer that follows is taken", async () => {
    const f = await fault("ok", "spoof-then-ok")
    const r = await run(makeResolver([srv(f.port)], 1000).query({ name: "a.test", type: "A", tcp: true }))
    expect(Either.isRight(r) && (r.right.answers[0] as any).data).toBe("127.0.0.2")
  })

  test("transaction ids come from the CSPRNG, not Math.random", async () => {
    const ids = new Set<number>()
    const udp = dgram.createSocket("udp4")
    await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()))
    udp.on("message", (msg, rinfo) => {
      const q = packet.decode(msg)
      ids.add(q.id!)
      udp.send(reply(q, "ok", false)!, rinfo.port, rinfo.address)
    })
    const saved = Math.random
    Math.random = () => 0.5
    try {
      const resolver = makeResolver([srv((udp.address() as net.AddressInfo).port)], 500)
      for (let i = 0; i < 20; i++) await run(resolver.query({ name: "a.test", type: "A" }))
    } finally {
      Math.random = saved
      udp.close()
    }
    expect(ids.size).toBeGreaterThan(15)
  })

  test("TestClock drives the query timeout (no real wait)", async () => {
    const f = await fault("silent")
    const r = await Effect.runPromise(Effect.gen(function*() {
      const fiber = yield* Effect.fork(Effect.either(makeResolver([srv(f.port)], 600_000).query({ name: "a.test", type: "A" })))
      // Let the query reach the server and start waiting (real time: the socket is real).
      yield* Effect.promise(() => new Promise((r) => setTimeout(r, 50)))
      yield* TestClock.adjust(Duration.minutes(11))
      return yield* Fiber.join(fiber)
    }).pipe(Effect.provide(TestContext.TestContext)))
    expect(Either.isLeft(r) && r.left._tag).toBe("DnsTimeout")
  })
})
