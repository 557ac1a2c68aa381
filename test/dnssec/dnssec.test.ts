import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Option, TestClock, TestContext } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig, parseResolverList } from "../../src/platform/Config"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { builtinAnchors, parseTrustAnchors } from "../../src/adapters/dnssec/anchors"
import { dsDigest, keyTag, nsec3Hash, signatureWindow, type Rrsig } from "../../src/adapters/dnssec/crypto"
import { DnssecValidator } from "../../src/adapters/dnssec/DnssecValidator"
import { BIN, startLab, type Lab } from "../dns/lab"

describe("DNSSEC primitives", () => {
  test("NSEC3 hashes match RFC 5155 Appendix A", () => {
    const salt = Buffer.from("aabbccdd", "hex")
    expect(nsec3Hash("example", salt, 12)).toBe("0p9mhaveqvm6t7vbl5lop2u3t2rp3tom")
    expect(nsec3Hash("a.example", salt, 12)).toBe("35mthgpgcu1qg68fab165klnsnk3dpvl")
  })

  test.each(["RSASHA256", "RSASHA512", "ECDSAP256SHA256", "ECDSAP384SHA384", "ED25519"])(
    "%s: key tag and DS digests agree with BIND's dnssec-keygen and dnssec-dsfromkey",
    (alg) => {
      const dir = mkdtempSync(join(tmpdir(), "di-dnssec-"))
      try {
        const keygen = spawnSync(BIN.keygen(), ["-q", "-K", dir, "-a", alg, ...(alg.startsWith("RSA") ? ["-b", "1024"] : []), "-f", "KSK", "-n", "ZONE", "Example.TEST."], { encoding: "utf8" })
        expect(keygen.status).toBe(0)
        const base = keygen.stdout.trim()
        const tag = Number(base.split("+")[2])
        const anchors = parseTrustAnchors(readFileSync(join(dir, base + ".key"), "utf8"))
        expect(anchors.length).toBe(1)
        const k = anchors[0]
        if (k.kind !== "DNSKEY") throw new Error("expected a DNSKEY")
        expect(k.owner).toBe("example.test")
        expect(keyTag(k)).toBe(tag)
        for (const [flag, type] of [["-2", 2], ["-a", 4]] as const) {
          const args = flag === "-2" ? ["-2", join(dir, base + ".key")] : ["-a", "SHA-384", join(dir, base + ".key")]
          const ds = spawnSync("/usr/bin/dnssec-dsfromkey", args, { encoding: "utf8" })
          expect(ds.status).toBe(0)
          const parsed = parseTrustAnchors(ds.stdout)[0]
          if (parsed.kind !== "DS") throw new Error("expected a DS")
          expect(parsed.digestType).toBe(type)
          expect(parsed.keyTag).toBe(tag)
          expect(dsDigest("example.test", k, type)!.toString("hex")).toBe(parsed.digest.toString("hex"))
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  )

  test("trust anchors: built-in IANA root KSKs; zone-file syntax with parentheses and comments", () => {
    expect(builtinAnchors.map((a) => a.kind === "DS" && a.keyTag).sort()).toEqual([20326, 38696])
    const parsed = parseTrustAnchors(`
$ORIGIN test.
; a comment
@ 3600 IN DS 12345 13 2 (
   0123456789ABCDEF0123456789ABCDEF
   0123456789ABCDEF0123456789ABCDEF ) ; trailing
sub IN DNSKEY 257 3 15 ( l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4= )
other IN A 192.0.2.1
`)
    expect(parsed.length).toBe(2)
    expect(parsed[0]).toMatchObject({ kind: "DS", owner: "test", keyTag: 12345, algorithm: 13, digestType: 2 })
    expect(parsed[1]).toMatchObject({ kind: "DNSKEY", owner: "sub.test", flags: 257, algorithm: 15 })
    expect(() => parseTrustAnchors(". IN DS 1 8 2 nothex")).toThrow()
  })

  test("signature windows use serial-number arithmetic", () => {
    const sig = { inception: Date.parse("2025-01-01T00:00:00Z") / 1000, expiration: Date.parse("2025-02-01T00:00:00Z") / 1000 } as Rrsig
    expect(signatureWindow(sig, Date.parse("2025-01-15T00:00:00Z") / 1000)).toBe("valid")
    expect(signatureWindow(sig, Date.parse("2025-03-01T00:00:00Z") / 1000)).toBe("expired")
    expect(signatureWindow(sig, Date.parse("2024-12-01T00:00:00Z") / 1000)).toBe("not_yet_valid")
  })
})

describe("DNSSEC validation windows follow the Effect Clock", () => {
  let lab: Lab
  beforeAll(async () => {
    const n = 1 + Math.floor(Math.random() * 250)
    lab = await startLab({
      n,
      treeWindow: { start: "20190101000000", end: "20350101000000" },
      zones: [{ name: "window.lab", algorithm: "ECDSAP256SHA256", caa: true, ns: [`127.53.${n}.1`, `127.53.${n}.2`], signWindow: { start: "20200101000000", end: "20200201000000" } }]
    })
  }, 60_000)
  afterAll(async () => {
    await lab?.stop()
  })

  const validate = (zone: string, at: number | null) => {
    const cfg = AppConfig.make({ dnsResolvers: parseResolverList(lab.resolver), dnssecTrustAnchors: Option.some(lab.anchorsFile), dnsAuthPort: lab.port })
    const layer = DnssecValidator.Live.pipe(Layer.provideMerge(DnsResolver.Live), Layer.provideMerge(cfg))
    const eff = Effect.gen(function*() {
      if (at !== null) yield* TestClock.setTime(at)
      return yield* (yield* DnssecValidator).validateZone(zone)
    }).pipe(Effect.provide(layer))
    return Effect.runPromise(at === null ? eff : eff.pipe(Effect.provide(TestContext.TestContext)))
  }

  test("signatures valid in January 2020 are secure then, bogus now", async () => {
    const then = await validate("window.lab", Date.parse("2020-01-15T00:00:00Z"))
    expect(then.status).toBe("secure")
    const now = await validate("window.lab", null)
    expect(now.status).toBe("bogus")
    expect(now.reason).toContain("expired")
    const before = await validate("window.lab", Date.parse("2019-06-01T00:00:00Z"))
    expect(before.status).toBe("bogus")
    expect(before.reason).toContain("not valid before")
  }, 30_000)

  test("the wrong trust anchor makes the root bogus", async () => {
    const cfg = AppConfig.make({ dnsResolvers: parseResolverList(lab.resolver), dnssecTrustAnchors: Option.none(), dnsAuthPort: lab.port })
    const layer = DnssecValidator.Live.pipe(Layer.provideMerge(DnsResolver.Live), Layer.provideMerge(cfg))
    const r = await Effect.runPromise(Effect.flatMap(DnssecValidator, (v) => v.validateZone("window.lab")).pipe(Effect.provide(layer)))
    expect(r.status).toBe("bogus")
    expect(r.reason).toContain("trust anchor")
  }, 30_000)
})
