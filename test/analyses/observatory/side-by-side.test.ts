/**
 * The service against the MDN HTTP Observatory 1.4.8 itself (its scanner, run by node), on the
 * same test sites in a network namespace of their own (only loopback; names from a hosts file
 * and a loopback DNS server; a test CA): same grade, score and per-test result and pass on
 * every site, except the Observatory's named defects, where the service must differ as stated.
 */
import { beforeAll, describe, expect, test } from "bun:test"
import { runLab, type LabResult } from "./lab/run"
import { SITES } from "./lab/sites"

let lab: LabResult

beforeAll(() => {
  lab = runLab()
}, 300_000)

describe("side by side with the MDN HTTP Observatory", () => {
  test("the Observatory ran on every site", () => {
    expect(Object.keys(lab.theirs).sort()).toEqual(SITES.map((s) => s.host).sort())
  })

  for (const site of SITES) {
    test(site.host, () => {
      const ours = lab.ours[site.host]
      const theirs = lab.theirs[site.host]
      if (site.fails) {
        expect(theirs.error).toBeString()
        expect(ours.error).toStartWith("UpstreamUnavailable")
        return
      }
      expect(theirs.error).toBeUndefined()
      const defects = site.defects ?? {}
      const names = Object.keys(theirs.tests)
      expect(Object.keys(ours.tests).sort()).toEqual(names.sort())
      for (const name of names) {
        const mine = { result: ours.tests[name].result, pass: ours.tests[name].pass, score_modifier: ours.tests[name].score_modifier }
        if (name in defects) expect(mine).not.toEqual(theirs.tests[name])
        else expect({ name, ...mine }).toEqual({ name, ...theirs.tests[name] })
      }
      if (Object.keys(defects).length === 0) {
        expect({ grade: ours.grade, score: ours.score, passed: ours.tests_passed }).toEqual({ grade: theirs.grade, score: theirs.score, passed: theirs.tests_passed })
      }
    })
  }

  test("its defects, corrected: a reflected Origin with credentials is universal access", () => {
    expect(lab.theirs["cors-reflect.test"].tests["cross-origin-resource-sharing"].result).toBe("cross-origin-resource-sharing-implemented-with-restricted-access")
    expect(lab.ours["cors-reflect.test"].tests["cross-origin-resource-sharing"]).toMatchObject({
      result: "cross-origin-resource-sharing-implemented-with-universal-access", pass: false, score_modifier: -50
    })
  })

  test("its defects, corrected: frame-ancestors in a <meta> policy does not stop framing", () => {
    expect(lab.theirs["csp-meta-frame-ancestors.test"].tests["x-frame-options"].result).toBe("x-frame-options-implemented-via-csp")
    expect(lab.ours["csp-meta-frame-ancestors.test"].tests["x-frame-options"].result).toBe("x-frame-options-not-implemented")
  })

  test("extras: security.txt and the headers the Observatory leaves out", () => {
    expect(lab.ours["securitytxt.test"].extras.security_txt).toMatchObject({ present: true, valid: true, signed: false, expired: false, contact: ["mailto:security@securitytxt.test"] })
    expect(lab.ours["aplus.test"].extras.security_txt.present).toBe(false)
  })
})
