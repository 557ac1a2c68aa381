/**
 * The takeover report as the audit embeds and reads it (docs/operations/domain-audit.md
 * "Exposure"): `reports.takeover` is the Subdomain Takeover operation's own report schema; the
 * exposure check reads only its candidates' confidence, so it takes that much.
 */
import { Confidence, TakeoverReport } from "../takeover/schema"

export { Confidence as TakeoverConfidence }

export const TakeoverReportRef = TakeoverReport

/** What the audit needs of a takeover report. */
export interface TakeoverInput {
  readonly candidates: ReadonlyArray<{ readonly confidence: Confidence }>
}
