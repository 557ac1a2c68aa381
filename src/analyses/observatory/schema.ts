/** The HTTP security grade report (docs/operations/security-headers.md, "Report"): the one contract. */
import { Schema } from "effect"

const TestResult = Schema.Struct({
  pass: Schema.Boolean,
  result: Schema.String.annotations({ description: "the Observatory's result identifier, e.g. csp-implemented-with-no-unsafe" }),
  expectation: Schema.String,
  score_modifier: Schema.Number,
  description: Schema.String,
  recommendation: Schema.String.annotations({ description: "how to fix it; empty when there is nothing to do" })
})

const Tests = Schema.Struct({
  "content-security-policy": TestResult,
  cookies: TestResult,
  "cross-origin-resource-sharing": TestResult,
  redirection: TestResult,
  "referrer-policy": TestResult,
  "strict-transport-security": TestResult,
  "subresource-integrity": TestResult,
  "x-content-type-options": TestResult,
  "x-frame-options": TestResult,
  "cross-origin-resource-policy": TestResult
})

const HeaderExtra = Schema.Struct({ present: Schema.Boolean, value: Schema.NullOr(Schema.String), valid: Schema.Boolean })

export const Extras = Schema.Struct({
  permissions_policy: Schema.Struct({ present: Schema.Boolean, value: Schema.NullOr(Schema.String), features: Schema.Array(Schema.String) }),
  cross_origin_opener_policy: HeaderExtra,
  cross_origin_embedder_policy: HeaderExtra,
  security_txt: Schema.Struct({
    present: Schema.Boolean,
    url: Schema.String,
    valid: Schema.Boolean,
    signed: Schema.Boolean,
    expires: Schema.NullOr(Schema.String),
    expired: Schema.NullOr(Schema.Boolean),
    contact: Schema.Array(Schema.String),
    errors: Schema.Array(Schema.String)
  })
})

export const SecurityHeadersReport = Schema.Struct({
  url: Schema.String,
  final_url: Schema.String,
  grade: Schema.Literal("A+", "A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-", "F"),
  score: Schema.Number.annotations({ description: "100 plus the modifiers; bonuses only from 90 up, so it may exceed 100" }),
  tests_passed: Schema.Number,
  tests_failed: Schema.Number,
  tests_quantity: Schema.Number,
  tests: Tests,
  extras: Extras,
  checked_at: Schema.String
})

export type SecurityHeadersReport = typeof SecurityHeadersReport.Type
