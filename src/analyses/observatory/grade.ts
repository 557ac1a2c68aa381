/**
 * The Observatory's scoring (pure): start at 100, add every test's modifier; bonuses count only
 * when the score without them is already 90 or more (an A); the grade is read off a chart in
 * steps of 5, 100 and above being A+.
 */
import { corpTest } from "./corp"
import { cookiesTest } from "./cookies"
import { corsTest } from "./cors"
import { cspTest } from "./csp"
import { hstsTest, type PreloadList } from "./hsts"
import { redirectionTest } from "./redirection"
import { referrerTest } from "./referrer"
import { resultInfo, TESTS, type TestName } from "./results"
import type { Retrieval } from "./retrieval"
import { sriTest } from "./sri"
import { xctoTest } from "./xcto"
import { xfoTest } from "./xfo"

export const BASELINE = 100
export const EXTRA_CREDIT_FROM = 90

const CHART: ReadonlyArray<readonly [number, string]> = [
  [100, "A+"], [90, "A"], [85, "A-"], [80, "B+"], [70, "B"], [65, "B-"], [60, "C+"], [50, "C"], [45, "C-"],
  [40, "D+"], [30, "D"], [25, "D-"], [0, "F"]
]

export const gradeFor = (score: number): string => {
  const key = Math.min(score - (score % 5), 100)
  return CHART.find(([from]) => key >= from)![1]
}

export interface TestResult {
  readonly pass: boolean
  readonly result: string
  readonly expectation: string
  readonly score_modifier: number
  readonly description: string
  readonly recommendation: string
}

export interface Graded {
  readonly grade: string
  readonly score: number
  readonly tests_passed: number
  readonly tests_failed: number
  readonly tests_quantity: number
  readonly tests: Readonly<Record<TestName, TestResult>>
}

/** Every test's result and pass, before scoring. */
export const runTests = (r: Retrieval, preload: PreloadList): Record<TestName, { result: string; pass: boolean }> => {
  const csp = cspTest(r)
  const hsts = hstsTest(r, preload)
  return {
    "content-security-policy": csp,
    cookies: cookiesTest(r, hsts.pass),
    "cross-origin-resource-sharing": corsTest(r),
    redirection: redirectionTest(r, preload),
    "referrer-policy": referrerTest(r),
    "strict-transport-security": hsts,
    "subresource-integrity": sriTest(r),
    "x-content-type-options": xctoTest(r),
    "x-frame-options": xfoTest(r, csp),
    "cross-origin-resource-policy": corpTest(r)
  }
}

export const grade = (outcomes: Record<TestName, { result: string; pass: boolean }>): Graded => {
  let withBonus = BASELINE
  let penaltiesOnly = BASELINE
  let passed = 0
  const tests = {} as Record<TestName, TestResult>
  for (const [name, expectation] of TESTS) {
    const { result, pass } = outcomes[name]
    const info = resultInfo(result)
    withBonus += info.modifier
    if (info.modifier < 0) penaltiesOnly += info.modifier
    if (pass) passed++
    tests[name] = { pass, result, expectation, score_modifier: info.modifier, description: info.description, recommendation: info.recommendation }
  }
  const score = Math.max(penaltiesOnly >= EXTRA_CREDIT_FROM ? withBonus : penaltiesOnly, 0)
  return { grade: gradeFor(score), score, tests_passed: passed, tests_failed: TESTS.length - passed, tests_quantity: TESTS.length, tests }
}
