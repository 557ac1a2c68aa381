/** The security-header rubric (pure): each header judged on its value. */
import { describe, expect, test } from "bun:test"
import {
  gradeHeaders,
  gradeOf,
  judgeCsp,
  judgeHsts,
  judgePermissions,
  judgeReferrer,
  judgeXcto,
  judgeXfo
} from "../../src/analyses/headers/headers"

describe("Strict-Transport-Security", () => {
  const cases: Array<[string | undefined, boolean, string, number]> = [
    ["max-age=31536000; includeSubDomains; preload", true, "good", 0],
    ["max-age=15552000", true, "good", 0],
    ["max-age=15551999", true, "weak", 15],
    ["max-age=60", true, "weak", 15],
    ["max-age=0", true, "weak", 20],
    ["MAX-AGE=\"31536000\"", true, "good", 0],
    ["includeSubDomains", true, "invalid", 20],
    ["max-age=abc", true, "invalid", 20],
    ["max-age=100; max-age=31536000", true, "invalid", 20],
    [undefined, true, "missing", 20],
    [undefined, false, "missing", 20],
    // RFC 6797 §8.1: browsers ignore STS received over plain http: present, not in effect.
    ["max-age=31536000", false, "ineffective", 20],
    ["max-age=0", false, "ineffective", 20],
    ["max-age=31536000; max-age=1", false, "invalid", 20]
  ]
  for (const [value, https, status, deduction] of cases) {
    test(`${value ?? "(absent)"} over ${https ? "https" : "http"} → ${status}`, () => {
      const v = judgeHsts(value, https)
      expect(v.status).toBe(status as any)
      expect(v.deduction).toBe(deduction)
    })
  }
})

describe("Content-Security-Policy", () => {
  const cases: Array<[string | undefined, string, number]> = [
    ["default-src 'self'", "good", 0],
    ["default-src 'none'; script-src 'self'; object-src 'none'", "good", 0],
    ["script-src 'self' 'unsafe-inline'; object-src 'none'", "weak", 20],
    // 'unsafe-inline' is ignored when a nonce is present (CSP level 2+).
    ["script-src 'nonce-abc' 'unsafe-inline'; object-src 'none'", "good", 0],
    ["default-src 'self' 'unsafe-inline' 'unsafe-eval'", "weak", 35],
    ["script-src *; object-src 'none'", "weak", 20],
    ["script-src https:; object-src 'none'", "weak", 20],
    ["script-src 'nonce-x' 'strict-dynamic' https:; object-src 'none'", "good", 0],
    ["img-src 'self'", "weak", 25],
    ["upgrade-insecure-requests; frame-ancestors 'none'", "weak", 25],
    ["script-src 'self'", "weak", 5],
    ["bogus", "invalid", 25],
    [undefined, "missing", 25]
  ]
  for (const [value, status, deduction] of cases) {
    test(`${value ?? "(absent)"} → ${status} -${deduction}`, () => {
      const v = judgeCsp(value)
      expect(v.status).toBe(status as any)
      expect(v.deduction).toBe(deduction)
    })
  }
  test("the finding names 'unsafe-inline' in script-src", () => {
    expect(judgeCsp("script-src 'self' 'unsafe-inline'").findings.join(" ")).toContain("script-src allows 'unsafe-inline'")
  })
})

describe("X-Content-Type-Options, X-Frame-Options", () => {
  test("nosniff only", () => {
    expect(judgeXcto("nosniff").status).toBe("good")
    expect(judgeXcto(" NoSniff ").status).toBe("good")
    expect(judgeXcto("sniff").status).toBe("invalid")
    expect(judgeXcto(undefined).deduction).toBe(5)
  })
  test("DENY, SAMEORIGIN, ALLOW-FROM, and CSP frame-ancestors in its place", () => {
    expect(judgeXfo("DENY", undefined).status).toBe("good")
    expect(judgeXfo("sameorigin", undefined).status).toBe("good")
    expect(judgeXfo("ALLOW-FROM https://a.example", undefined)).toMatchObject({ status: "weak", deduction: 10 })
    expect(judgeXfo("yes please", undefined)).toMatchObject({ status: "invalid", deduction: 20 })
    expect(judgeXfo(undefined, undefined)).toMatchObject({ status: "missing", deduction: 20 })
    expect(judgeXfo(undefined, "frame-ancestors 'self'").status).toBe("good")
    expect(judgeXfo(undefined, "frame-ancestors *").status).toBe("missing")
  })
})

describe("Referrer-Policy and Permissions-Policy", () => {
  test("private values are good, origin leaks and full-URL leaks are weak", () => {
    for (const v of ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]) {
      expect(judgeReferrer(v).status).toBe("good")
    }
    expect(judgeReferrer("origin")).toMatchObject({ status: "weak", deduction: 3 })
    expect(judgeReferrer("unsafe-url")).toMatchObject({ status: "weak", deduction: 10 })
    expect(judgeReferrer("no-referrer-when-downgrade")).toMatchObject({ status: "weak", deduction: 10 })
    // The last understood token wins (fallback lists).
    expect(judgeReferrer("unsafe-url, strict-origin-when-cross-origin").status).toBe("good")
    expect(judgeReferrer("no-referrer, unsafe-url").status).toBe("weak")
    expect(judgeReferrer("nonsense").status).toBe("invalid")
    expect(judgeReferrer(undefined).status).toBe("missing")
  })
  test("a policy must restrict something", () => {
    expect(judgePermissions("camera=(), geolocation=(self)", undefined).status).toBe("good")
    expect(judgePermissions("camera=*, microphone=*", undefined).status).toBe("weak")
    expect(judgePermissions("camera 'none'", undefined).status).toBe("invalid")
    expect(judgePermissions(undefined, "camera 'none'").status).toBe("weak")
    expect(judgePermissions(undefined, undefined).status).toBe("missing")
  })
})

describe("grade", () => {
  test("boundaries", () => {
    expect([100, 99, 90, 89, 80, 79, 65, 64, 50, 49, 0].map(gradeOf)).toEqual(["A+", "A", "A", "B", "B", "C", "C", "D", "D", "F", "F"])
  })
  test("no headers at all over https is F, and over plain http too", () => {
    const r = gradeHeaders({ url: "https://x.example/", finalUrl: "https://x.example/", statusCode: 200, headers: {} })
    expect(r.score).toBe(20)
    expect(r.grade).toBe("F")
    expect(r.summary).toEqual({ good: 0, weak: 0, missing: 6, invalid: 0, ineffective: 0 })
  })
  test("HSTS with max-age=60 alone keeps a site out of A", () => {
    const r = gradeHeaders({
      url: "https://x.example/",
      finalUrl: "https://x.example/",
      statusCode: 200,
      headers: {
        "strict-transport-security": "max-age=60",
        "content-security-policy": "default-src 'self'",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "permissions-policy": "camera=()"
      }
    })
    expect(r.score).toBe(85)
    expect(r.grade).toBe("B")
  })
})
