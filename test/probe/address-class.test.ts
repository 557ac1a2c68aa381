/**
 * The guard's address table over every IPv6 form that carries an IPv4 address, in every
 * spelling: compressed, expanded, dotted-quad tail, bracketed, with a zone id, upper case.
 */
import { describe, expect, test } from "bun:test"
import { classifyAddress } from "../../src/adapters/probe/guard"

type C = "public" | "private" | "metadata"

/** Every spelling of one IPv6 address given as eight 16-bit words. */
const spellings = (words: ReadonlyArray<number>): Array<string> => {
  const hex = words.map((w) => w.toString(16))
  const expanded = words.map((w) => w.toString(16).padStart(4, "0")).join(":")
  const plain = hex.join(":")
  // Compressed: the longest run of zero words as "::".
  let best = -1, bestLen = 0
  for (let i = 0; i < 8; i++) {
    let j = i
    while (j < 8 && words[j] === 0) j++
    if (j - i > bestLen && j - i >= 2) { best = i; bestLen = j - i }
  }
  const compressed = best < 0 ? plain : `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`
  const quad = `${words[6] >> 8}.${words[6] & 0xff}.${words[7] >> 8}.${words[7] & 0xff}`
  const head6 = words.slice(0, 6).map((w) => w.toString(16))
  const mixed = `${head6.join(":")}:${quad}`
  const out = [compressed, expanded, plain, mixed, `[${compressed}]`, `${compressed}%eth0`, `[${compressed}%25lo]`, compressed.toUpperCase(), expanded.toUpperCase(), mixed.toUpperCase()]
  return [...new Set(out)]
}
const v4words = (ip: string): [number, number] => {
  const b = ip.split(".").map(Number)
  return [(b[0] << 8) | b[1], (b[2] << 8) | b[3]]
}

/** IPv4 addresses and their verdicts; each is wrapped in every embedding form below. */
const v4: Array<[string, C]> = [
  ["127.0.0.1", "private"],
  ["127.0.0.2", "private"],
  ["10.1.2.3", "private"],
  ["172.16.0.1", "private"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "private"],
  ["169.254.169.254", "metadata"],
  ["169.254.1.1", "private"],
  ["0.0.0.0", "private"],
  ["224.0.0.1", "private"],
  ["255.255.255.255", "private"],
  ["192.0.2.1", "private"],
  ["198.18.0.1", "private"],
  ["8.8.8.8", "public"],
  ["93.184.216.34", "public"]
]

const forms: Array<[string, (ip: string) => Array<number>]> = [
  ["IPv4-compatible ::/96", (ip) => [0, 0, 0, 0, 0, 0, ...v4words(ip)]],
  ["IPv4-mapped ::ffff:0:0/96", (ip) => [0, 0, 0, 0, 0, 0xffff, ...v4words(ip)]],
  ["IPv4-translated ::ffff:0:0:0/96", (ip) => [0, 0, 0, 0, 0xffff, 0, ...v4words(ip)]],
  ["NAT64 64:ff9b::/96", (ip) => [0x64, 0xff9b, 0, 0, 0, 0, ...v4words(ip)]],
  ["6to4 2002::/16", (ip) => [0x2002, ...v4words(ip), 0, 0, 0, 0, 1]],
  ["Teredo client (XOR) 2001::/32", (ip) => {
    const [hi, lo] = v4words(ip)
    return [0x2001, 0, 0x0808, 0x0808, 0, 0, hi ^ 0xffff, lo ^ 0xffff] // server 8.8.8.8 (public)
  }],
  ["Teredo server 2001::/32", (ip) => {
    const [c1, c2] = v4words("93.184.216.34")
    return [0x2001, 0, ...v4words(ip), 0, 0, c1 ^ 0xffff, c2 ^ 0xffff]
  }]
]

describe("IPv6 forms are judged by the IPv4 they carry", () => {
  for (const [form, make] of forms) {
    test(form, () => {
      const wrong: Array<string> = []
      for (const [ip, expected] of v4) {
        // ::0.0.0.0 and ::0.0.0.1 are "::" and "::1": private either way.
        for (const s of spellings(make(ip))) {
          const got = classifyAddress(s)
          if (got !== expected) wrong.push(`${s} (${ip}) → ${got}, expected ${expected}`)
        }
      }
      expect(wrong).toEqual([])
    })
  }

  test("the local-use NAT64 prefix 64:ff9b:1::/48 is never public", () => {
    for (const s of [...spellings([0x64, 0xff9b, 1, 0, 0, 0, 0x0808, 0x0808]), "64:ff9b:1:ab::7f00:1", "64:ff9b:1::a9fe:a9fe"]) {
      expect({ s, c: classifyAddress(s) }).toEqual({ s, c: s.includes("a9fe:a9fe") ? "metadata" : "private" })
    }
  })

  test("the issue's examples", () => {
    expect(classifyAddress("::7f00:1")).toBe("private")
    expect(classifyAddress("[::7f00:1]")).toBe("private")
    expect(classifyAddress("::a9fe:a9fe")).toBe("metadata")
    expect(classifyAddress("::7f00:2")).toBe("private")
    expect(classifyAddress("64:ff9b:1::7f00:1")).toBe("private")
  })
})

describe("other IPv6: only global unicast outside the special ranges", () => {
  const table: Array<[string, C]> = [
    ["2606:4700::1111", "public"],
    ["2a00:1450:4001:80b::200e", "public"],
    ["2001:4860:4860::8888", "public"],
    ["::1", "private"],
    ["::", "private"],
    ["fe80::1", "private"],
    ["FE80::1%eth0", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["ff02::1", "private"],
    ["100::1", "private"], // discard-only
    ["5f00::1", "private"], // SRv6 SIDs
    ["4000::1", "private"], // outside 2000::/3
    ["2001:db8::1", "private"], // documentation
    ["2001:DB8:FFFF::1", "private"],
    ["3fff::1", "private"], // documentation (RFC 9637)
    ["2001:2::1", "private"], // benchmarking
    ["2001:10::1", "private"], // ORCHID
    ["2001:20::1", "private"], // ORCHIDv2
    ["2001:3::1", "private"], // AMT
    ["2001:1::1", "private"], // IETF protocol assignments
    ["2620:4f:8000::1", "private"], // AS112
    ["fd00:ec2::254", "metadata"],
    ["[fd00:ec2::254]", "metadata"],
    ["not-an-ip", "private"],
    ["", "private"],
    ["1.2.3", "private"]
  ]
  for (const [addr, expected] of table) {
    test(`${addr} is ${expected}`, () => expect(classifyAddress(addr)).toBe(expected))
  }
})
