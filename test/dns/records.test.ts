/**
 * The typed DNS decoder (src/adapters/dns/wire.ts, rdata.ts, svcb.ts, names.ts) on wire bytes
 * made by an independent encoder (dns-packet), by hand after RFC figures (RFC 9460 Appendix D),
 * and malformed on purpose. Real servers' answers are decoded in records-lab.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import * as dgram from "node:dgram"
import type { AddressInfo } from "node:net"
import * as packet from "dns-packet"
import { decodeAnswer, DnsMalformed, makeResolver } from "../../src/adapters/dns/DnsResolver"
import { ipv6Text, nameWire, readName } from "../../src/adapters/dns/names"
import { typeNameOf } from "../../src/adapters/dns/records"
import { typeCode, typeName } from "../../src/adapters/dns/rrtypes"
import { decodeSvcb } from "../../src/adapters/dns/svcb"
import { decodeMessage, encodeQuery } from "../../src/adapters/dns/wire"

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex")
const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff])

/** A response for `t.test A` with the given answers, encoded by dns-packet. */
const encoded = (answers: Array<packet.Answer>) =>
  packet.encode({ type: "response", id: 7, flags: 0, questions: [{ type: "A", name: "t.test" }], answers })

/** A response for `t.test A` with one answer of type `code` and these RDATA bytes (RDLENGTH given or exact). */
const withRdata = (code: number, rdata: Buffer, rdlength = rdata.length) =>
  Buffer.concat([
    hex("0007 8000 0001 0001 0000 0000"),
    nameWire("t.test"), u16(1), u16(1),
    hex("c00c"), u16(code), u16(1), hex("00000e10"), u16(rdlength), rdata
  ])

describe("typed records from dns-packet's encoding", () => {
  const key = Buffer.from("mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==", "base64")
  const sig = Buffer.alloc(64, 7)
  const cases: ReadonlyArray<readonly [Exclude<packet.Answer, packet.OptAnswer>, string, unknown]> = [
    [{ type: "A", name: "t.test", data: "192.0.2.1" }, "A", "192.0.2.1"],
    [{ type: "AAAA", name: "t.test", data: "2001:db8::1" }, "AAAA", "2001:db8::1"],
    [{ type: "CNAME", name: "t.test", data: "Target.Example" }, "CNAME", "Target.Example"],
    [{ type: "DNAME", name: "t.test", data: "other.example" }, "DNAME", "other.example"],
    [{ type: "NS", name: "t.test", data: "ns1.t.test" }, "NS", "ns1.t.test"],
    [{ type: "PTR", name: "t.test", data: "host.example" }, "PTR", "host.example"],
    [{ type: "MX", name: "t.test", data: { preference: 10, exchange: "mail.t.test" } }, "MX", { preference: 10, exchange: "mail.t.test" }],
    [{ type: "TXT", name: "t.test", data: ["v=spf1 -all", "second"] }, "TXT", [Buffer.from("v=spf1 -all"), Buffer.from("second")]],
    [{ type: "SOA", name: "t.test", data: { mname: "ns1.t.test", rname: "host\\.master.t.test", serial: 4294967295, refresh: 1, retry: 2, expire: 3, minimum: 4 } },
      "SOA", { mname: "ns1.t.test", rname: "host\\.master.t.test", serial: 4294967295, refresh: 1, retry: 2, expire: 3, minimum: 4 }],
    [{ type: "SRV", name: "t.test", data: { priority: 1, weight: 2, port: 443, target: "svc.t.test" } }, "SRV", { priority: 1, weight: 2, port: 443, target: "svc.t.test" }],
    [{ type: "CAA", name: "t.test", data: { flags: 128, tag: "issue", value: "ca.example; account=1" } }, "CAA", { flags: 128, tag: "issue", value: "ca.example; account=1", issuerCritical: true }],
    [{ type: "DS", name: "t.test", data: { keyTag: 2371, algorithm: 13, digestType: 2, digest: hex("aabbcc") } }, "DS", { keyTag: 2371, algorithm: 13, digestType: 2, digest: hex("aabbcc") }],
    [{ type: "DNSKEY", name: "t.test", data: { flags: 257, algorithm: 13, key } }, "DNSKEY", { flags: 257, algorithm: 13, key }],
    [{ type: "RRSIG", name: "t.test", data: { typeCovered: "A", algorithm: 13, labels: 2, originalTTL: 3600, expiration: 4000000000, inception: 1700000000, keyTag: 2371, signersName: "t.test", signature: sig } },
      "RRSIG", { typeCovered: "A", algorithm: 13, labels: 2, originalTTL: 3600, expiration: 4000000000, inception: 1700000000, keyTag: 2371, signersName: "t.test", signature: sig }],
    [{ type: "NSEC", name: "t.test", data: { nextDomain: "a.t.test", rrtypes: ["A", "NS", "SOA", "RRSIG", "NSEC", "DNSKEY", "CAA"] } },
      "NSEC", { nextDomain: "a.t.test", rrtypes: ["A", "NS", "SOA", "RRSIG", "NSEC", "DNSKEY", "CAA"] }],
    [{ type: "NSEC3", name: "t.test", data: { algorithm: 1, flags: 1, iterations: 0, salt: Buffer.alloc(0), nextDomain: hex("0011223344"), rrtypes: ["A", "RRSIG"] } },
      "NSEC3", { algorithm: 1, flags: 1, iterations: 0, salt: Buffer.alloc(0), nextDomain: hex("0011223344"), rrtypes: ["A", "RRSIG"] }],
    [{ type: "TLSA", name: "t.test", data: { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.alloc(32, 9) } }, "TLSA", { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.alloc(32, 9) }],
    [{ type: "HINFO", name: "t.test", data: { cpu: "RFC8482", os: "" } }, "HINFO", { cpu: "RFC8482", os: "" }],
    [{ type: "RP", name: "t.test", data: { mbox: "admin.t.test", txt: "info.t.test" } }, "RP", { mbox: "admin.t.test", txt: "info.t.test" }],
    [{ type: "SSHFP", name: "t.test", data: { algorithm: 4, hash: 2, fingerprint: "AB".repeat(32) } }, "SSHFP", { algorithm: 4, hash: 2, fingerprint: "AB".repeat(32) }],
    [{ type: "NAPTR", name: "t.test", data: { order: 100, preference: 10, flags: "S", services: "SIP+D2U", regexp: "", replacement: "_sip._udp.t.test" } },
      "NAPTR", { order: 100, preference: 10, flags: "S", services: "SIP+D2U", regexp: "", replacement: "_sip._udp.t.test" }]
  ]

  test.each(cases.map(([a, type, data]) => [type, a, data] as const))("%s", (type, answer, data) => {
    const msg = encoded([{ ...answer, ttl: 300 }])
    const [r] = decodeMessage(msg).answers
    expect<string>(r.type).toBe(type)
    expect<unknown>(r.data).toEqual(data)
    expect(r).toMatchObject({ name: "t.test", ttl: 300, class: "IN" })
    // The independent decoder reads the same values off the same bytes.
    const reference = packet.decode(msg).answers![0]
    expect<unknown>(r.data).toEqual("data" in reference ? reference.data : "no data")
  })

  test("the RDATA is kept as sent, and a compressed name in it is written out", () => {
    const [a] = decodeMessage(encoded([{ type: "A", name: "t.test", data: "192.0.2.1" }])).answers
    expect(a.rdata).toEqual(hex("c0000201"))
    // NS rdata "ns1" + pointer to t.test at offset 12; owner pointer too.
    const msg = withRdata(2, Buffer.concat([Buffer.from([3]), Buffer.from("ns1"), hex("c00c")]))
    const [ns] = decodeMessage(msg).answers
    expect(ns).toMatchObject({ type: "NS", name: "t.test", data: "ns1.t.test" })
    expect(ns.rdata).toEqual(nameWire("ns1.t.test"))
  })
})

describe("types dns-packet does not decode", () => {
  test("HTTPS, SVCB, NSEC3PARAM, CDS, CDNSKEY, SPF, NULL and an unknown type", () => {
    const svcb = hex("0001 00 0001 0003 026832 0003 0002 0035")
    const one = (code: number, rdata: Buffer) => decodeMessage(withRdata(code, rdata)).answers[0]
    expect(one(65, svcb)).toMatchObject({ type: "HTTPS", data: { priority: 1, target: ".", params: { alpn: ["h2"], port: 53 } } })
    expect(one(64, svcb).type).toBe("SVCB")
    expect(one(51, hex("01 00 000a 04 aabbccdd")).data).toEqual({ algorithm: 1, flags: 0, iterations: 10, salt: hex("aabbccdd") })
    expect(one(59, hex("0943 0d 02 ff")).data).toEqual({ keyTag: 2371, algorithm: 13, digestType: 2, digest: hex("ff") })
    expect(one(60, hex("0101 03 0d 0102")).data).toEqual({ flags: 257, algorithm: 13, key: hex("0102") })
    expect(one(99, hex("05 68656c6c6f 00")).data).toEqual([Buffer.from("hello"), Buffer.alloc(0)])
    const unknown = one(4242, hex("deadbeef"))
    expect(unknown).toMatchObject({ type: "UNKNOWN", code: 4242, data: hex("deadbeef") })
    expect(typeNameOf(unknown)).toBe("TYPE4242")
    expect(typeNameOf(one(10, hex("00")))).toBe("NULL")
  })

  test("type names and numbers, RFC 3597 spellings included", () => {
    expect([typeCode("https"), typeCode("SVCB"), typeCode("TYPE4242"), typeCode("*"), typeCode("NOPE")]).toEqual([65, 64, 4242, 255, undefined])
    expect([typeName(65), typeName(257), typeName(4242)]).toEqual(["HTTPS", "CAA", "TYPE4242"])
  })
})

describe("SVCB/HTTPS RDATA: RFC 9460 Appendix D", () => {
  test("D.1 AliasMode", () => {
    expect(decodeSvcb(hex("0000 03666f6f 076578616d706c65 03636f6d 00"))).toEqual({ priority: 0, target: "foo.example.com", params: {} })
  })
  test("D.2 ServiceMode vectors", () => {
    expect(decodeSvcb(hex("0001 00"))).toEqual({ priority: 1, target: ".", params: {} })
    expect(decodeSvcb(hex("0010 03666f6f 076578616d706c65 03636f6d 00 0003 0002 0035"))).toEqual({ priority: 16, target: "foo.example.com", params: { port: 53 } })
    expect(decodeSvcb(hex("0001 03666f6f 076578616d706c65 03636f6d 00 029b 0005 68656c6c6f"))).toEqual({ priority: 1, target: "foo.example.com", params: { key667: "68656c6c6f" } })
    expect(decodeSvcb(hex("0001 03666f6f 076578616d706c65 03636f6d 00 0006 0020 20010db8000000000000000000000001 20010db8000000000000000000530001")).params)
      .toEqual({ ipv6hint: ["2001:db8::1", "2001:db8::53:1"] })
    expect(decodeSvcb(hex("0010 03666f6f 076578616d706c65 036f7267 00 0000 0004 0001 0004 0001 0009 02683205 68332d3139 0004 0004 c0000201"))).toEqual({
      priority: 16,
      target: "foo.example.org",
      params: { mandatory: ["alpn", "ipv4hint"], alpn: ["h2", "h3-19"], ipv4hint: ["192.0.2.1"] }
    })
  })
  test("every named key, ech in base64", () => {
    const d = decodeSvcb(hex("0001 00 0001 0003 026832 0002 0000 0005 0003 010203 0007 0005 2f7b3f7d 21 0008 0000"))
    expect(d.params).toEqual({ alpn: ["h2"], "no-default-alpn": true, ech: "AQID", dohpath: "/{?}!", ohttp: true })
  })
  test.each([
    ["keys out of order (D.3: a key twice)", "0001 00 0003 0002 0035 0003 0002 0036", /increasing/],
    ["keys decreasing", "0001 00 0003 0002 0035 0001 0003 026832", /increasing/],
    ["empty alpn", "0001 00 0001 0000", /alpn/],
    ["alpn id overrunning its value", "0001 00 0001 0002 0568", /alpn/],
    ["port of 3 octets", "0001 00 0003 0003 003500", /port/],
    ["ipv4hint of 5 octets", "0001 00 0004 0005 c000020101", /ipv4hint/],
    ["ipv6hint empty", "0001 00 0006 0000", /ipv6hint/],
    ["no-default-alpn with a value", "0001 00 0002 0001 00", /no-default-alpn/],
    ["mandatory listing mandatory", "0001 00 0000 0002 0000", /mandatory/],
    ["value past the RDATA", "0001 00 0003 0004 0035", /truncated/],
    ["key cut in half", "0001 00 00", /truncated/],
    ["compressed target", "0001 c00c", /compress/]
  ])("malformed: %s", (_, wire, reason) => {
    expect(() => decodeSvcb(hex(wire))).toThrow(reason)
  })
})

describe("malformed messages are DnsMalformed", () => {
  const q = { name: "t.test", type: "A" }
  const server = { host: "127.0.0.1", port: 53 }
  const cases: ReadonlyArray<readonly [string, Buffer, RegExp]> = [
    ["A of 3 octets", withRdata(1, hex("c00002")), /RDATA shorter|octets left/],
    ["A of 5 octets", withRdata(1, hex("c000020101")), /left over/],
    ["AAAA of 4 octets", withRdata(28, hex("20010db8")), /shorter/],
    ["RDLENGTH past the message", withRdata(1, hex("c0000201"), 9), /past the end/],
    ["MX name running past RDLENGTH", withRdata(15, Buffer.concat([hex("000a"), nameWire("mail.t.test")]), 5), /past|left over|shorter/],
    ["TXT string longer than the RDATA", withRdata(16, hex("09 6162")), /shorter/],
    ["DNSKEY protocol 2", withRdata(48, hex("0101 02 0d 00")), /protocol/],
    ["CAA with an empty tag", withRdata(257, hex("00 00 61")), /tag/],
    ["RRSIG with a compressed signer", withRdata(46, Buffer.concat([hex("0001 0d 02 00000e10 ee6b2800 6553f100 0943"), hex("c00c"), Buffer.alloc(4)])), /compress/],
    ["NSEC bitmap window of 33 octets", withRdata(47, Buffer.concat([nameWire("a.t.test"), hex("00 21"), Buffer.alloc(33)])), /bitmap/],
    ["NSEC3 without a next hash", withRdata(50, hex("01 00 0000 00 00")), /next hashed/],
    ["HTTPS with keys out of order", withRdata(65, hex("0001 00 0003 0002 0035 0001 0003 026832")), /increasing/],
    ["name pointer forwards", Buffer.concat([hex("0007 8000 0001 0000 0000 0000"), hex("c00e"), hex("00010001")]), /pointer/],
    ["name pointer to itself", Buffer.concat([hex("0007 8000 0001 0000 0000 0000"), hex("c00c"), hex("00010001")]), /pointer/],
    ["label type 0x40", Buffer.concat([hex("0007 8000 0001 0000 0000 0000"), hex("41"), hex("00010001")]), /label type/],
    ["more answers counted than sent", Buffer.concat([encoded([{ type: "A", name: "t.test", data: "192.0.2.1" }]).subarray(0, 6), u16(2), encoded([{ type: "A", name: "t.test", data: "192.0.2.1" }]).subarray(8)]), /past the end/],
    ["a header cut short", hex("0007 8000 00"), /shorter than its header/]
  ]
  test.each(cases)("%s", (_, msg, reason) => {
    let thrown: unknown
    try {
      decodeAnswer(msg, q, 7, server)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(DnsMalformed)
    expect((thrown as DnsMalformed).reason).toMatch(reason)
  })

  const sockets: Array<dgram.Socket> = []
  afterAll(() => sockets.forEach((s) => s.close()))

  test("a server answering with malformed RDATA: the query fails DnsMalformed, the process lives on", async () => {
    const s = dgram.createSocket("udp4")
    sockets.push(s)
    await new Promise<void>((r) => s.bind(0, "127.0.0.1", () => r()))
    s.on("message", (m, rinfo) => {
      const reply = withRdata(15, Buffer.concat([hex("000a"), nameWire("mail.t.test")]), 5)
      m.copy(reply, 0, 0, 2) // echo the id
      s.send(reply, rinfo.port, rinfo.address)
    })
    const port = (s.address() as AddressInfo).port
    const r = await Effect.runPromise(Effect.either(makeResolver([{ host: "127.0.0.1", port }], 400).query({ name: "t.test", type: "A" })))
    expect(Either.isLeft(r) && r.left._tag === "DnsMalformed" && r.left.reason).toMatch(/MX record of t\.test: name runs past RDLENGTH/)
  })
})

describe("names and addresses", () => {
  test("labels with dots, spaces and high bytes are escaped and read back to the same wire form", () => {
    const wire = Buffer.concat([Buffer.from([3]), Buffer.from("a.b"), Buffer.from([3, 0x20, 0xff, 0x5c]), Buffer.from([4]), Buffer.from("test"), Buffer.from([0])])
    const n = readName(wire, 0)
    expect(n.name).toBe("a\\.b.\\032\\255\\\\.test")
    expect(nameWire(n.name)).toEqual(wire)
    expect(nameWire("Mixed.Case.TEST.", true)).toEqual(nameWire("mixed.case.test"))
    expect(readName(Buffer.from([0]), 0).name).toBe(".")
    expect(() => nameWire("a..b")).toThrow(/empty label/)
    expect(() => nameWire(`${"x".repeat(64)}.test`)).toThrow(/63/)
  })

  test("a name over 255 octets is malformed", () => {
    const long = Buffer.concat([...Array.from({ length: 5 }, () => Buffer.concat([Buffer.from([60]), Buffer.alloc(60, 0x61)])), Buffer.from([0])])
    expect(() => readName(long, 0)).toThrow(/255/)
  })

  test.each([
    ["20010db8000000000000000000000001", "2001:db8::1"],
    ["00000000000000000000000000000000", "::"],
    ["00000000000000000000000000000001", "::1"],
    ["fe800000000000000000000000000000", "fe80::"],
    ["20010db8000000010001000100010001", "2001:db8:0:1:1:1:1:1"],
    ["20010000000000010000000000000001", "2001:0:0:1::1"],
    ["20010db8000000000001000000000001", "2001:db8::1:0:0:1"],
    ["00000000000000000000ffffc0000201", "::ffff:c000:201"]
  ])("RFC 5952: %s is %s", (h, text) => {
    expect(ipv6Text(hex(h))).toBe(text)
  })

  test("RFC 5952 text agrees with the WHATWG URL serializer on random addresses", () => {
    for (let i = 0; i < 2000; i++) {
      const b = Buffer.alloc(16)
      for (let j = 0; j < 16; j += 2) if (Math.random() < 0.5) b.writeUInt16BE(Math.random() < 0.3 ? 1 : Math.floor(Math.random() * 65536), j)
      expect(ipv6Text(b)).toBe(new URL(`http://[${ipv6Text(b)}]/`).hostname.slice(1, -1))
    }
  })

  test("the query on the wire, as dns-packet reads it", () => {
    const q = packet.decode(encodeQuery({ id: 4242, name: "Example.TEST.", code: 65, recursionDesired: true, checkingDisabled: true, dnssecOk: true }))
    expect(q.id).toBe(4242)
    expect(q.flags! & packet.RECURSION_DESIRED).toBeTruthy()
    expect(q.flags! & packet.CHECKING_DISABLED).toBeTruthy()
    expect<unknown>(q.questions).toEqual([{ name: "Example.TEST", type: "UNKNOWN_65", class: "IN" }])
    const opt = q.additionals![0]
    expect(opt.type === "OPT" && [opt.udpPayloadSize, opt.flag_do]).toEqual([1232, true])
    const axfr = packet.decode(encodeQuery({ id: 1, name: "t.test", code: 252, recursionDesired: false, checkingDisabled: false }))
    expect([axfr.flags, axfr.additionals?.length]).toEqual([0, 0])
  })
})
