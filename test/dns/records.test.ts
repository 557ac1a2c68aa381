/**
 * The typed boundary of DNS answers (src/adapters/dns/fromPacket.ts over dns-packet's decoding,
 * svcb.ts for SVCB/HTTPS): records encoded by dns-packet and bytes written by hand after RFC
 * figures (RFC 9460 Appendix D) go through the resolver's `decodeAnswer`; records of the wrong
 * shape and malformed messages are DnsMalformed naming the record. Real servers' answers are
 * typed in records-lab.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import * as dgram from "node:dgram"
import type { AddressInfo } from "node:net"
import * as packet from "dns-packet"
import { decodeAnswer, DnsMalformed, encodeQuery, makeResolver } from "../../src/adapters/dns/DnsResolver"
import { recordFromPacket } from "../../src/adapters/dns/fromPacket"
import { MalformedRdata, typeNameOf } from "../../src/adapters/dns/records"
import { typeCode, typeName } from "../../src/adapters/dns/rrtypes"
import { decodeSvcb } from "../../src/adapters/dns/svcb"

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex")
const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff])
/** Uncompressed wire form of a name written with plain labels. */
const wireName = (n: string) => Buffer.concat([...n.split(".").map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])])

const server = { host: "127.0.0.1", port: 53 }
const question = { name: "t.test", type: "A" }
const decoded = (msg: Buffer) => decodeAnswer(msg, question, 7, server)

/** A response for `t.test A` with the given answers, encoded by dns-packet. */
const encoded = (answers: Array<packet.Answer>) =>
  packet.encode({ type: "response", id: 7, flags: 0, questions: [{ type: "A", name: "t.test" }], answers })

/** A response for `t.test A` with one answer of type `code` (class `klass`) and these RDATA bytes (RDLENGTH given or exact). */
const withRdata = (code: number, rdata: Buffer, rdlength = rdata.length, klass = 1) =>
  Buffer.concat([
    hex("0007 8000 0001 0001 0000 0000"),
    wireName("t.test"), u16(1), u16(1),
    hex("c00c"), u16(code), u16(klass), hex("00000e10"), u16(rdlength), rdata
  ])
const one = (code: number, rdata: Buffer, klass = 1) => decoded(withRdata(code, rdata, rdata.length, klass)).answers[0]

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
    // dns-packet names HTTPS `UNKNOWN_65`; the typed record uses the mnemonic.
    [{ type: "RRSIG", name: "t.test", data: { typeCovered: "UNKNOWN_65", algorithm: 13, labels: 2, originalTTL: 1, expiration: 2, inception: 1, keyTag: 1, signersName: "t.test", signature: sig } },
      "RRSIG", { typeCovered: "HTTPS", algorithm: 13, labels: 2, originalTTL: 1, expiration: 2, inception: 1, keyTag: 1, signersName: "t.test", signature: sig }],
    [{ type: "NSEC", name: "t.test", data: { nextDomain: "a.t.test", rrtypes: ["A", "NS", "SOA", "RRSIG", "NSEC", "DNSKEY", "CAA", "UNKNOWN_65"] } },
      "NSEC", { nextDomain: "a.t.test", rrtypes: ["A", "NS", "SOA", "RRSIG", "NSEC", "DNSKEY", "HTTPS", "CAA"] }],
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
    const [r] = decoded(encoded([{ ...answer, ttl: 300 }])).answers
    expect<string>(r.type).toBe(type)
    expect<unknown>(r.data).toEqual(data)
    expect(r).toMatchObject({ name: "t.test", ttl: 300, class: "IN" })
  })

  test("a compressed name in RDATA is read whole; OPT is left out of every section", () => {
    const msg = withRdata(2, Buffer.concat([Buffer.from([3]), Buffer.from("ns1"), hex("c00c")]))
    expect(decoded(msg).answers).toMatchObject([{ type: "NS", name: "t.test", data: "ns1.t.test" }])
    const withOpt = packet.encode({
      type: "response", id: 7, questions: [{ type: "A", name: "t.test" }], answers: [{ type: "A", name: "t.test", data: "192.0.2.1" }],
      additionals: [{ type: "OPT", name: ".", udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }]
    })
    expect([decoded(withOpt).answers.length, decoded(withOpt).additionals.length]).toEqual([1, 0])
  })

  test("classes: names dns-packet has, RFC 3597 spelling for the rest (the top bit included)", () => {
    expect(one(1, hex("c0000201"), 3).class).toBe("CH")
    expect(one(1, hex("c0000201"), 77).class).toBe("CLASS77")
    expect(one(1, hex("c0000201"), 0x8001).class).toBe("CLASS32769")
  })
})

describe("types dns-packet hands over as raw bytes", () => {
  test("HTTPS, SVCB, NSEC3PARAM, CDS, CDNSKEY, SPF, NULL and an unknown type", () => {
    const svcb = hex("0001 00 0001 0003 026832 0003 0002 0035")
    expect(one(65, svcb)).toMatchObject({ type: "HTTPS", data: { priority: 1, target: ".", params: { alpn: ["h2"], port: 53 } }, rdata: svcb })
    expect(one(64, svcb).type).toBe("SVCB")
    expect(one(51, hex("01 00 000a 04 aabbccdd"))).toMatchObject({ data: { algorithm: 1, flags: 0, iterations: 10, salt: hex("aabbccdd") }, rdata: hex("01 00 000a 04 aabbccdd") })
    expect(one(59, hex("0943 0d 02 ff")).data).toEqual({ keyTag: 2371, algorithm: 13, digestType: 2, digest: hex("ff") })
    expect(one(60, hex("0101 03 0d 0102")).data).toEqual({ flags: 257, algorithm: 13, key: hex("0102") })
    expect(one(99, hex("05 68656c6c6f 00")).data).toEqual([Buffer.from("hello"), Buffer.alloc(0)])
    const unknown = one(4242, hex("deadbeef"))
    expect(unknown).toMatchObject({ type: "UNKNOWN", code: 4242, data: hex("deadbeef") })
    expect(typeNameOf(unknown)).toBe("TYPE4242")
    expect(typeNameOf(one(10, hex("00")))).toBe("NULL")
    expect(typeNameOf(one(256, hex("000a 0001 68")))).toBe("URI")
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
    ["compressed target", "0001 c00c", /compress/],
    ["target running past the RDATA", "0001 05 6162", /past the RDATA/]
  ])("malformed: %s", (_, wire, reason) => {
    expect(() => decodeSvcb(hex(wire))).toThrow(MalformedRdata)
    expect(() => decodeSvcb(hex(wire))).toThrow(reason)
  })
})

describe("records of the wrong shape are MalformedRdata naming the record", () => {
  const rr = (type: string, data: unknown, more: object = {}) => ({ name: "x.test", type, ttl: 60, class: "IN", data, ...more })
  test.each([
    ["MX preference out of range", rr("MX", { preference: 70000, exchange: "mx.test" }), /^MX record of x\.test: preference is not a 16-bit number/],
    ["MX exchange not a name", rr("MX", { preference: 1, exchange: 5 }), /^MX record of x\.test: exchange is not a name/],
    ["MX without fields", rr("MX", "mx.test"), /^MX record of x\.test: RDATA is not a set of fields/],
    ["TXT strings instead of bytes", rr("TXT", ["v=spf1"]), /^TXT record of x\.test: character-string is not bytes/],
    ["TXT not a list", rr("TXT", Buffer.from("x")), /character-string is not a list/],
    ["A not an address", rr("A", "192.0.2.undefined"), /^A record of x\.test: address is not IPv4/],
    ["AAAA not an address", rr("AAAA", "2001:db8::g"), /address is not IPv6/],
    ["SOA serial negative", rr("SOA", { mname: "a", rname: "b", serial: -1, refresh: 1, retry: 1, expire: 1, minimum: 1 }), /serial is not a 32-bit number/],
    ["RRSIG covering no type", rr("RRSIG", { typeCovered: "NOPE", algorithm: 13, labels: 2, originalTTL: 1, expiration: 2, inception: 1, keyTag: 1, signersName: "x.test", signature: Buffer.alloc(1) }), /type covered is not a record type/],
    ["RRSIG signature as text", rr("RRSIG", { typeCovered: "A", algorithm: 13, labels: 2, originalTTL: 1, expiration: 2, inception: 1, keyTag: 1, signersName: "x.test", signature: "AAAA" }), /signature is not bytes/],
    ["NSEC type list of numbers", rr("NSEC", { nextDomain: "a.x.test", rrtypes: [1, 2] }), /type bitmap entry is not text/],
    ["NSEC3 without a next hash", rr("NSEC3", { algorithm: 1, flags: 0, iterations: 0, salt: Buffer.alloc(0), nextDomain: Buffer.alloc(0), rrtypes: [] }), /next hashed owner is empty/],
    ["DNSKEY algorithm fractional", rr("DNSKEY", { flags: 257, algorithm: 1.5, key: Buffer.alloc(4) }), /algorithm is not a 8-bit number/],
    ["CAA with an empty tag", rr("CAA", { flags: 0, tag: "", value: "x" }), /tag is empty/],
    ["SSHFP of an unknown hash type", rr("SSHFP", { algorithm: 4, hash: 3, fingerprint: "" }), /no fingerprint of hash type 3/],
    ["HTTPS keys out of order", rr("UNKNOWN_65", hex("0001 00 0003 0002 0035 0001 0003 026832")), /^HTTPS record of x\.test: SVCB\/HTTPS: .*increasing/],
    ["CDS too short for dns-packet's DS codec", rr("CDS", hex("09")), /^CDS record of x\.test: /],
    ["NSEC3PARAM salt past the RDATA", rr("NSEC3PARAM", hex("01 00 000a 04 aa")), /does not hold its salt/],
    ["unknown type without bytes", rr("UNKNOWN_4242", "deadbeef"), /^TYPE4242 record of x\.test: RDATA is not bytes/],
    ["TTL negative", rr("A", "192.0.2.1", { ttl: -1 }), /TTL is not a 32-bit number/],
    ["class missing", rr("A", "192.0.2.1", { class: undefined }), /class is not text/]
  ])("%s", (_, answer, reason) => {
    expect(() => recordFromPacket(answer)).toThrow(MalformedRdata)
    expect(() => recordFromPacket(answer)).toThrow(reason)
  })

  test("OPT is no record; an owner that is no name is malformed", () => {
    expect(recordFromPacket({ name: ".", type: "OPT", udpPayloadSize: 1232 })).toBeUndefined()
    expect(() => recordFromPacket({ name: "", type: "A", ttl: 1, class: "IN", data: "192.0.2.1" })).toThrow(/owner is not a name/)
    expect(() => recordFromPacket("A 192.0.2.1")).toThrow(/record is not a set of fields/)
  })
})

describe("malformed messages are DnsMalformed", () => {
  const cases: ReadonlyArray<readonly [string, Buffer, RegExp]> = [
    ["A of 3 octets", withRdata(1, hex("c00002")), /^A record of t\.test: address is not IPv4/],
    ["AAAA of 4 octets", withRdata(28, hex("20010db8")), /past the end of the message/],
    ["RDLENGTH past the message", withRdata(4242, hex("c0000201"), 9), /past the end of the message/],
    ["TXT string longer than the RDATA", withRdata(16, hex("09 6162")), /^TXT record of t\.test: Buffer overflow/],
    ["DNSKEY protocol 2", withRdata(48, hex("0101 02 0d 00")), /^DNSKEY record of t\.test: Protocol must be 3/],
    ["CAA with an empty tag", withRdata(257, hex("00 00 61")), /^CAA record of t\.test: tag is empty/],
    ["NSEC3 without a next hash", withRdata(50, hex("01 00 0000 00 00")), /^NSEC3 record of t\.test: next hashed owner is empty/],
    ["HTTPS with keys out of order", withRdata(65, hex("0001 00 0003 0002 0035 0001 0003 026832")), /^HTTPS record of t\.test: .*increasing/],
    ["MX exchange with a forward pointer", withRdata(15, Buffer.concat([hex("000a"), hex("c0ff")])), /^MX record of t\.test: .*bad pointer/],
    ["name pointer forwards", Buffer.concat([hex("0007 8000 0001 0000 0000 0000"), hex("c00e"), hex("00010001")]), /pointer/],
    ["name pointer to itself", Buffer.concat([hex("0007 8000 0001 0000 0000 0000"), hex("c00c"), hex("00010001")]), /pointer/],
    ["label type 0x40", Buffer.concat([hex("0007 8000 0001 0000 0000 0000"), hex("41"), hex("00010001")]), /bad label/],
    ["more answers counted than sent", Buffer.concat([encoded([{ type: "A", name: "t.test", data: "192.0.2.1" }]).subarray(0, 6), u16(2), encoded([{ type: "A", name: "t.test", data: "192.0.2.1" }]).subarray(8)]), /overflow|past the end/],
    ["a header cut short", hex("0007 8000 00"), /12 bytes/],
    ["a query, not a response", packet.encode({ type: "query", id: 7, questions: [{ type: "A", name: "t.test" }] }), /not a response/]
  ]
  test.each(cases)("%s", (_, msg, reason) => {
    let thrown: unknown
    try {
      decoded(msg)
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
      const reply = withRdata(16, hex("09 6162"))
      m.copy(reply, 0, 0, 2) // echo the id
      s.send(reply, rinfo.port, rinfo.address)
    })
    const port = (s.address() as AddressInfo).port
    const resolver = makeResolver([{ host: "127.0.0.1", port }], 400)
    const r = await Effect.runPromise(Effect.either(resolver.query({ name: "t.test", type: "A" })))
    expect(Either.isLeft(r) && r.left._tag === "DnsMalformed" && r.left.reason).toMatch(/^TXT record of t\.test: Buffer overflow/)
  })
})

describe("addresses and the query", () => {
  test.each([
    ["20010db8000000000000000000000001", "2001:db8::1"],
    ["00000000000000000000000000000000", "::"],
    ["00000000000000000000000000000001", "::1"],
    ["fe800000000000000000000000000000", "fe80::"],
    ["20010db8000000010001000100010001", "2001:db8:0:1:1:1:1:1"],
    ["20010000000000010000000000000001", "2001:0:0:1::1"],
    ["20010000000000010000000000000000", "2001:0:0:1::"],
    ["20010db8000000000001000000000001", "2001:db8::1:0:0:1"],
    ["00000000430300000000000000000001", "0:0:4303::1"],
    ["0000000043030000000021ee00000001", "::4303:0:0:21ee:0:1"],
    ["00000000000000000000ffffc0000201", "::ffff:c000:201"]
  ])("AAAA in RFC 5952 form: %s is %s", (h, text) => {
    expect(one(28, hex(h)).data).toBe(text)
  })

  test("AAAA text agrees with the WHATWG URL serializer on random addresses", () => {
    for (let i = 0; i < 500; i++) {
      const b = Buffer.alloc(16)
      for (let j = 0; j < 16; j += 2) if (Math.random() < 0.5) b.writeUInt16BE(Math.random() < 0.3 ? 1 : Math.floor(Math.random() * 65536), j)
      const text = one(28, b).data
      expect(text).toBe(new URL(`http://[${String(text)}]/`).hostname.slice(1, -1))
    }
  })

  test("the query on the wire, as dns-packet reads it (types it has no name for by number)", async () => {
    const wire = await Effect.runPromise(encodeQuery({ name: "Example.TEST.", type: "https", checkingDisabled: true, dnssec: true }, 4242, server))
    const q = packet.decode(wire)
    expect(q.id).toBe(4242)
    expect(q.flags! & packet.RECURSION_DESIRED).toBeTruthy()
    expect(q.flags! & packet.CHECKING_DISABLED).toBeTruthy()
    expect<unknown>(q.questions).toEqual([{ name: "Example.TEST", type: "UNKNOWN_65", class: "IN" }])
    const opt = q.additionals![0]
    expect(opt.type === "OPT" && [opt.udpPayloadSize, opt.flag_do]).toEqual([1232, true])
    const axfr = packet.decode(await Effect.runPromise(encodeQuery({ name: "t.test", type: "AXFR", recursionDesired: false }, 1, server, false)))
    expect([axfr.flags, axfr.questions?.[0].type, axfr.additionals?.length]).toEqual([0, "AXFR", 0])
    const bad = await Effect.runPromise(Effect.either(encodeQuery({ name: "t.test", type: "NOPE" }, 1, server)))
    expect(Either.isLeft(bad) && bad.left.reason).toBe("unknown record type NOPE")
  })
})
