/** The HSTS judgement of http-check (RFC 6797). security_headers grades HSTS as the MDN HTTP Observatory does (test/analyses/observatory). */
import { describe, expect, test } from "bun:test"
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
