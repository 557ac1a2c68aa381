/**
 * The pure core on constructed bytes, for what Debian's OpenSSL 3 cannot serve: SSL 3.0, RC4,
 * export and 3DES suites, X25519MLKEM768, a Heartbleed-vulnerable heartbeat answer; and the
 * grade's rules one by one.
 */
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { buildClientHello } from "../../src/analyses/tls/clientHello"
import { groups13, type Probe } from "../../src/analyses/tls/enumerate"
import { GROUPS, groupByCode, groupName } from "../../src/analyses/tls/groups"
import { gradeTls, type TlsObservations } from "../../src/analyses/tls/grade"
import { heartbeatRequest, judgeHeartbeat } from "../../src/analyses/tls/heartbleed"
import { parseFlight } from "../../src/analyses/tls/serverHello"
import { allSuites, suiteByCode, suiteByName, suitesFor, type Version } from "../../src/analyses/tls/suites"

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
const HRR = "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c"

/** A ServerHello record as a server would send it. */
const serverHello = (o: { version: number; suite: number; compression?: number; exts?: ReadonlyArray<[number, ReadonlyArray<number>]>; hrr?: boolean }) => {
  const random = o.hrr ? [...Buffer.from(HRR, "hex")] : Array.from({ length: 32 }, (_, i) => i)
  const exts = (o.exts ?? []).flatMap(([t, b]) => [...u16(t), ...u16(b.length), ...b])
  const body = [...u16(o.version), ...random, 0, ...u16(o.suite), o.compression ?? 0, ...(o.exts ? [...u16(exts.length), ...exts] : [])]
  const hs = [2, ...u24(body.length), ...body]
  return new Uint8Array([22, ...u16(o.version === 0x0300 ? 0x0300 : 0x0303), ...u16(hs.length), ...hs])
}

describe("suite table", () => {
  test("every suite OpenSSL knows has its IANA code and name", () => {
    const out = execFileSync("openssl", ["ciphers", "-V", "-stdname", "ALL:COMPLEMENTOFALL:@SECLEVEL=0"]).toString()
    const pairs = [...out.matchAll(/0x([0-9A-F]{2}),0x([0-9A-F]{2}) - (\S+)/g)]
    expect(pairs.length).toBeGreaterThan(100)
    for (const m of pairs) expect([m[3], suiteByCode(parseInt(m[1] + m[2], 16))?.name]).toEqual([m[3], m[3]])
  })

  test("properties follow from the names", () => {
    expect(suiteByName("TLS_RSA_WITH_3DES_EDE_CBC_SHA")).toMatchObject({ kx: "RSA", cipher: "3DES_EDE", bits: 112, block_bits: 64, forward_secrecy: false })
    expect(suiteByName("TLS_RSA_EXPORT_WITH_RC4_40_MD5")).toMatchObject({ export: true, cipher: "RC4", bits: 40, versions: ["ssl3", "tls1_0"] })
    expect(suiteByName("TLS_DH_anon_WITH_AES_128_CBC_SHA")).toMatchObject({ anonymous: true, kx: "DH" })
    expect(suiteByName("TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8")).toMatchObject({ aead: true, mode: "CCM_8", versions: ["tls1_2"], forward_secrecy: true })
    expect(suiteByName("TLS_AES_128_GCM_SHA256")).toMatchObject({ versions: ["tls1_3"], forward_secrecy: true })
    expect(suitesFor("tls1_2")[0]).toMatchObject({ kx: "ECDHE", aead: true, bits: 256 })
    expect(allSuites().length).toBeGreaterThan(300)
  })
})

describe("ClientHello", () => {
  test("lengths agree; SSL 3.0 carries no extensions; TLS 1.3 names itself in supported_versions", () => {
    for (const v of ["ssl3", "tls1_0", "tls1_2", "tls1_3"] as const) {
      const b = buildClientHello({ version: v, suites: suitesFor(v).map((s) => s.code), serverName: "example.com", keyShares: [] })
      expect((b[3] << 8) | b[4]).toBe(b.length - 5)
      expect((b[6] << 16) | (b[7] << 8) | b[8]).toBe(b.length - 9)
      const hex = Buffer.from(b).toString("hex")
      expect(hex.includes(Buffer.from("example.com").toString("hex"))).toBe(v !== "ssl3")
      expect(hex.includes("002b000302" + "0304")).toBe(v === "tls1_3")
    }
  })
})

describe("ServerHello facts from recorded bytes", () => {
  test("SSL 3.0 with RC4", () => {
    const f = parseFlight(serverHello({ version: 0x0300, suite: 0x0005 }))
    expect(f.kind).toBe("hello")
    if (f.kind !== "hello") return
    expect(f.hello.version).toBe(0x0300)
    expect(suiteByCode(f.hello.suite)?.name).toBe("TLS_RSA_WITH_RC4_128_SHA")
  })

  test("an export suite with DEFLATE compression, renegotiation_info and heartbeat", () => {
    const f = parseFlight(serverHello({ version: 0x0301, suite: 0x0003, compression: 1, exts: [[0xff01, [0]], [15, [1]]] }))
    if (f.kind !== "hello") throw new Error(f.kind)
    expect(suiteByCode(f.hello.suite)?.export).toBe(true)
    expect(f.hello.compression).toBe(1)
    expect([...f.hello.extensions.keys()]).toEqual([0xff01, 15])
  })

  test("X25519MLKEM768: a HelloRetryRequest naming it, and a ServerHello with its 1120-byte share", () => {
    const hrr = parseFlight(serverHello({ version: 0x0303, suite: 0x1301, hrr: true, exts: [[43, [3, 4]], [51, u16(0x11ec)]] }))
    if (hrr.kind !== "hello") throw new Error(hrr.kind)
    expect(hrr.hello).toMatchObject({ helloRetry: true, version: 0x0304, selectedGroup: 0x11ec })
    expect(groupName(hrr.hello.selectedGroup!)).toBe("X25519MLKEM768")
    const share = new Array(1120).fill(7)
    const sh = parseFlight(serverHello({ version: 0x0303, suite: 0x1302, exts: [[43, [3, 4]], [51, [...u16(0x11ec), ...u16(share.length), ...share]]] }))
    if (sh.kind !== "hello") throw new Error(sh.kind)
    expect(sh.hello).toMatchObject({ helloRetry: false, version: 0x0304, selectedGroup: 0x11ec })
    expect(sh.complete).toBe(true)
  })

  test("alerts, split records, foreign protocols", () => {
    expect(parseFlight(new Uint8Array([21, 3, 3, 0, 2, 2, 40]))).toEqual({ kind: "alert", level: 2, description: 40 })
    const whole = serverHello({ version: 0x0303, suite: 0xc02f })
    expect(parseFlight(whole.subarray(0, 20)).kind).toBe("incomplete")
    expect(parseFlight(Buffer.from("HTTP/1.1 400 Bad Request\r\n\r\n"))).toMatchObject({ kind: "not_tls" })
  })

  test("group enumeration over a server that speaks X25519MLKEM768 (answers from recorded bytes)", async () => {
    const probe: Probe = (spec) => Effect.succeed((() => {
      const g = spec.groups![0]
      const f = [0x11ec, 29].includes(g)
        ? parseFlight(serverHello({ version: 0x0303, suite: 0x1301, hrr: true, exts: [[43, [3, 4]], [51, u16(g)]] }))
        : parseFlight(new Uint8Array([21, 3, 3, 0, 2, 2, 40]))
      if (f.kind === "incomplete") throw new Error("incomplete")
      return f
    })())
    const found = await Effect.runPromise(groups13(probe, [suiteByCode(0x1301)!], null))
    expect(found.map((g) => g.name)).toEqual(["X25519MLKEM768", "x25519"])
  })
})

describe("Heartbleed judgement", () => {
  test("a heartbeat answer longer than the request is a leak; an alert or silence is not", () => {
    const req = heartbeatRequest(0x0303)
    expect(req[0]).toBe(24)
    expect((req[6] << 8) | req[7]).toBeGreaterThan(req.length - 5 - 3)
    expect(judgeHeartbeat(new Uint8Array([24, 3, 3, 0, 83, 2]), false)).toBe("vulnerable")
    expect(judgeHeartbeat(new Uint8Array([21, 3, 3, 0, 2, 2, 10]), false)).toBe("not_vulnerable")
    expect(judgeHeartbeat(new Uint8Array([]), false)).toBe("incomplete")
    expect(judgeHeartbeat(new Uint8Array([]), true)).toBe("not_vulnerable")
  })
})

const none = { ssl3: [], tls1_0: [], tls1_1: [], tls1_2: [], tls1_3: [] }
const named = (...names: Array<string>) => names.map((n) => suiteByName(n)!)
const good: TlsObservations = {
  suites: { ...none, tls1_2: named("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"), tls1_3: named("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384") },
  groups: [groupByCode(29)!, groupByCode(23)!],
  dhBits: null,
  forwardSecrecy: true,
  certificate: { subject: "CN=a", issuer: "CN=b", sans: ["a"], not_before: "", not_after: "", days_left: 60, key_type: "RSA", key_bits: 2048, signature_algorithm: "SHA256-with-RSA", chain_trusted: true, hostname_match: true, chain: [], ocsp_stapled: false, sct_count: 0 },
  features: { secure_renegotiation: true, fallback_scsv: true, compression: false, heartbeat: false },
  heartbleed: false,
  hstsMaxAge: null
}
const grade = (o: Partial<TlsObservations>) => gradeTls({ ...good, ...o })
const withSuites = (v: Version, ...names: Array<string>) => ({ suites: { ...good.suites, [v]: [...good.suites[v], ...named(...names)] } })

describe("grade: SSL Labs' rating guide", () => {
  test("a clean modern server is A; A+ with a six-month HSTS policy, not with a short one", () => {
    expect(grade({}).grade).toBe("A")
    expect(grade({ hstsMaxAge: 31_536_000 }).grade).toBe("A+")
    expect(grade({ hstsMaxAge: 86_400 }).grade).toBe("A")
  })

  test("each cap, named in a finding", () => {
    const cases: Array<[string, Partial<TlsObservations>, string, string]> = [
      ["SSL 3.0", withSuites("ssl3", "TLS_RSA_WITH_AES_128_CBC_SHA"), "C", "SSL 3.0 supported"],
      ["TLS 1.0", withSuites("tls1_0", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"), "B", "TLS 1.0/1.1 supported"],
      ["RC4", withSuites("tls1_2", "TLS_RSA_WITH_RC4_128_SHA"), "C", "RC4"],
      ["3DES with TLS 1.2", withSuites("tls1_2", "TLS_RSA_WITH_3DES_EDE_CBC_SHA"), "C", "Sweet32"],
      ["export", withSuites("tls1_0", "TLS_RSA_EXPORT_WITH_RC4_40_MD5"), "F", "export cipher suites"],
      ["anonymous", withSuites("tls1_2", "TLS_DH_anon_WITH_AES_128_GCM_SHA256"), "F", "anonymous cipher suites"],
      ["NULL", withSuites("tls1_2", "TLS_RSA_WITH_NULL_SHA256"), "F", "NULL cipher suites"],
      ["no forward secrecy", { forwardSecrecy: false }, "B", "no forward secrecy"],
      ["1024-bit RSA key", { certificate: { ...good.certificate!, key_bits: 1024 } }, "B", "weak key"],
      ["512-bit RSA key", { certificate: { ...good.certificate!, key_bits: 512 } }, "F", "weak key"],
      ["1024-bit DH", { dhBits: 1024 }, "B", "DH parameters below 2048"],
      ["Heartbleed", { heartbleed: true }, "F", "Heartbleed"],
      ["compression", { features: { ...good.features, compression: true } }, "C", "CRIME"],
      ["no secure renegotiation", { features: { ...good.features, secure_renegotiation: false } }, "A-", "secure renegotiation"]
    ]
    for (const [what, o, cap, rule] of cases) {
      const g = grade(o)
      expect([what, g.grade]).toEqual([what, cap])
      expect([what, g.findings.some((f) => f.message.includes("rating rule") && f.message.includes(rule))]).toEqual([what, true])
      if (cap !== "A-") expect(g.score).toBeLessThan(80)
    }
  })

  test("T for an untrusted chain wins over M for a name mismatch; both say what the grade would be", () => {
    const t = grade({ certificate: { ...good.certificate!, chain_trusted: false, hostname_match: false } })
    expect(t.grade).toBe("T")
    expect(t.findings.find((f) => f.message.includes("certificate not trusted"))?.message).toContain("A if trust issues were ignored")
    expect(grade({ certificate: { ...good.certificate!, hostname_match: false } }).grade).toBe("M")
  })

  test("no protocol in common is F", () => {
    expect(grade({ suites: none, groups: [] }).grade).toBe("F")
  })

  test("every group in the table has a share size and a strength", () => {
    for (const g of GROUPS) expect(g.share > 0 && g.strength > 0).toBe(true)
    expect(groupByCode(0x11ec)).toMatchObject({ name: "X25519MLKEM768", share: 1216 })
  })
})
