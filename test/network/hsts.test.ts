/** The one HSTS judgement (RFC 6797), and http-check and security_headers agreeing on it. */
import { describe, expect, test } from "bun:test"
import { judgeHsts } from "../../src/analyses/headers/headers"
import { pickHeaders, securitySummary } from "../../src/analyses/network/analyze"
import { judgeHstsHeader } from "../../src/analyses/network/hsts"

describe("judgeHstsHeader", () => {
  const cases: Array<[string | null, boolean, string, number | null, boolean]> = [
    ["max-age=31536000; includeSubDomains; preload", true, "enabled", 31536000, true],
    ["MAX-AGE=\"600\"", true, "enabled", 600, true],
    ["max-age=0", true, "disabled", 0, false],
    ["max-age=31536000", false, "ignored_over_http", 31536000, false],
    ["max-age=0", false, "ignored_over_http", 0, false],
    ["includeSubDomains", true, "invalid", null, false],
    ["max-age=abc", true, "invalid", null, false],
    ["max-age=1; max-age=2", true, "invalid", null, false],
    ["max-age=31536000; includeSubDomains; includeSubDomains", true, "invalid", null, false],
    [null, true, "absent", null, false],
    [null, false, "absent", null, false]
  ]
  for (const [value, https, state, maxAge, effective] of cases) {
    test(`${value ?? "(absent)"} over ${https ? "https" : "http"} → ${state}`, () => {
      const j = judgeHstsHeader(value, https)
      expect(j.state).toBe(state as any)
      expect(j.max_age).toBe(maxAge)
      expect(j.effective).toBe(effective)
      expect(j.present).toBe(value !== null)
    })
  }
})

describe("http-check and security_headers agree", () => {
  const values = [undefined, "max-age=31536000", "max-age=0", "max-age=60", "bogus", "max-age=1; max-age=1"]
  for (const value of values) {
    for (const https of [true, false]) {
      test(`${value ?? "(absent)"} over ${https ? "https" : "http"}`, () => {
        const summary = securitySummary(pickHeaders(value === undefined ? {} : { "strict-transport-security": value }), https)
        const verdict = judgeHsts(value, https)
        // hsts_enabled exactly when security_headers sees a policy browsers apply (good or short-lived).
        expect(summary.hsts_enabled).toBe(verdict.status === "good" || (verdict.status === "weak" && !value?.includes("max-age=0")))
        // Over plain http a valid header is never "missing": present, not in effect.
        if (!https && summary.hsts_max_age !== null) expect(verdict.status).toBe("ineffective")
        expect(verdict.present).toBe(value !== undefined)
      })
    }
  }
})
