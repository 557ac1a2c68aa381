/**
 * Findings of the email analysis: one rule set per check, each finding with a recommendation a
 * mail administrator can act on (the record to publish where one follows). Severities fixed by
 * the interface are marked "fixed"; the others are this project's choice. Both are listed in
 * docs/operations/email-security.md, "Severities". Pure.
 */
import type { ParsedDkimKey } from "./dkim"
import { tlsaProblem, type DaneObservation } from "./dane"
import type { BimiReport, DmarcReport, EmailFinding, MtaStsReport, MxReport, StarttlsResult, TlsRptReport } from "./schema"
import type { SpfReport } from "./spf/schema"

export interface FindingInput {
  readonly domain: string
  readonly mx: MxReport
  /** The MX lookup failed (SERVFAIL, the target's servers timing out). */
  readonly mxError: string | null
  readonly spf: SpfReport
  readonly dmarc: DmarcReport
  readonly dkim: { readonly checked: number; readonly found: ReadonlyArray<ParsedDkimKey>; readonly invalidSelectors: ReadonlyArray<string> }
  readonly mtaSts: MtaStsReport
  readonly tlsRpt: TlsRptReport
  readonly bimi: BimiReport
  readonly dane: ReadonlyArray<DaneObservation>
  readonly starttls: ReadonlyArray<StarttlsResult> | null
}

type Add = (f: EmailFinding) => void
const f = (check: EmailFinding["check"], severity: EmailFinding["severity"], message: string, recommendation: string | null): EmailFinding =>
  ({ check, severity, message, recommendation })

const mxFindings = (i: FindingInput, add: Add) => {
  const d = i.domain
  if (i.mxError !== null) add(f("mx", "high", `The MX lookup for ${d} failed: ${i.mxError}`, `Fix the authoritative DNS of ${d} so it answers MX queries; senders defer mail while it fails.`))
  if (i.mx.null_mx && i.mx.records.length > 0) {
    add(f("mx", "medium", `${d} publishes a null MX beside ${i.mx.records.length} other MX record(s) (RFC 7505 §3 forbids this)`, `Either remove "${d}. MX 0 ." or remove the other MX records.`))
  }
  for (const r of i.mx.records) {
    if (r.ips.length === 0) add(f("mx", "high", `MX host ${r.host} has no A or AAAA address: mail for ${d} cannot be delivered to it`, `Publish an address for ${r.host} or remove "${d}. MX ${r.preference} ${r.host}."`))
  }
  if (i.mx.null_mx) {
    const spfStrict = i.spf.record !== null && /^v=spf1\s+-all\s*$/i.test(i.spf.record.trim())
    const rejecting = i.dmarc.policy === "reject"
    if (!spfStrict || !rejecting) {
      // fixed: a null MX domain without v=spf1 -all and p=reject is medium.
      const missing = [spfStrict ? null : `${d}. TXT "v=spf1 -all"`, rejecting ? null : `_dmarc.${d}. TXT "v=DMARC1; p=reject;"`].filter((x) => x !== null)
      add(f("mx", "medium", `${d} accepts no mail (null MX) but does not also forbid sending it${spfStrict ? "" : " (no v=spf1 -all)"}${rejecting ? "" : " (DMARC is not p=reject)"}`, `A domain that sends no mail should publish ${missing.join(" and ")}.`))
    }
  } else if (i.mx.records.length === 0 && i.mxError === null) {
    add(f("mx", "low", `${d} has no MX records: senders fall back to its A/AAAA address (RFC 5321 §5.1)`, `If ${d} receives no mail, publish a null MX: "${d}. MX 0 ." (RFC 7505); otherwise publish its MX hosts.`))
  }
}

const spfFindings = (i: FindingInput, add: Add) => {
  const d = i.domain
  const s = i.spf
  const hasMx = i.mx.records.length > 0
  if (s.record === null && s.errors.length === 0) {
    if (i.mx.null_mx) return // covered by the null MX finding
    // fixed: no SPF on a domain with MX is high; without MX the project chose medium (it can still be forged).
    add(f("spf", hasMx ? "high" : "medium", `${d} publishes no SPF record`, `Publish ${d}. TXT "v=spf1 ${hasMx ? "mx " : ""}-all" (add include: terms for every service that sends as ${d}).`))
    return
  }
  if (s.all === "pass") add(f("spf", "critical", `SPF ends in +all: every host on the internet may send as ${d}`, `Replace +all with -all (or ~all while testing): "v=spf1 … -all".`)) // fixed
  if (s.lookups > 10 || s.void_lookups > 2) {
    // fixed: over the RFC 7208 §4.6.4 limits is a permerror, high.
    const what = [s.lookups > 10 ? `${s.lookups} DNS-querying terms (limit 10)` : null, s.void_lookups > 2 ? `${s.void_lookups} void lookups (limit 2)` : null].filter((x) => x !== null).join(" and ")
    add(f("spf", "high", `SPF evaluation needs ${what}: receivers get a permerror and treat the record as broken`, "Flatten the record: replace nested include: terms by the ip4:/ip6: ranges they publish, and remove includes of names without an SPF record."))
  } else if (!s.valid) {
    add(f("spf", "high", `SPF record is invalid (permerror at receivers): ${s.errors.join("; ")}`, `Publish exactly one valid record at ${d}, e.g. "v=spf1 mx -all"; check it with the RFC 7208 syntax.`))
  }
  if (s.all === "neutral") add(f("spf", "medium", "SPF ends in ?all (neutral): it asserts nothing about other senders", `End the record with -all (or ~all): "v=spf1 … -all".`))
  if (s.all === null && s.valid && s.record !== null) add(f("spf", "medium", "SPF has no all term: other senders get the default neutral result", `End the record with -all: "${s.record.trim()} -all".`))
  if (s.all === "softfail") add(f("spf", "info", "SPF ends in ~all (softfail); with DMARC enforcing this is common practice", null))
}

const dmarcFindings = (i: FindingInput, add: Add) => {
  const d = i.domain
  const m = i.dmarc
  const publish = `_dmarc.${d}. TXT "v=DMARC1; p=reject; rua=mailto:dmarc-reports@${d}"`
  if (m.record === null) {
    // fixed: no DMARC is high (a lookup failure or several records also leave the domain without a policy).
    add(f("dmarc", "high", m.errors.length > 0 ? `No usable DMARC policy for ${d}: ${m.errors.join("; ")}` : `${d} has no DMARC record (none at _dmarc.${d}${m.inherited_from ? "" : " or its organizational domain"})`, `Publish ${publish} (start with p=none and rua= reports if you need to inventory senders first).`))
    return
  }
  if (!m.valid) add(f("dmarc", "high", `The DMARC record is invalid: ${m.errors.join("; ")}`, `Fix the record; a valid one: ${publish}.`))
  if (m.policy === "none") add(f("dmarc", "medium", `DMARC policy is p=none${m.inherited_from ? ` (inherited from ${m.inherited_from})` : ""}: forged mail is delivered`, `Move to p=quarantine, then p=reject, once the aggregate reports show your own mail aligned: ${publish}.`)) // fixed
  if (m.policy !== null && m.policy !== "none" && m.pct !== null && m.pct < 100) add(f("dmarc", "low", `DMARC applies to only ${m.pct}% of failing mail (pct=${m.pct})`, "Remove pct= (or set pct=100) once the reports are clean."))
  if (m.policy !== null && m.policy !== "none" && m.subdomain_policy === "none" && m.inherited_from === null) add(f("dmarc", "low", "DMARC sp=none leaves every subdomain unprotected", "Remove sp=none (subdomains then inherit p=) or set sp=reject."))
  // A domain that sends no mail (null MX) has nothing to learn from aggregate reports.
  if (m.rua.length === 0 && !i.mx.null_mx) add(f("dmarc", "low", "DMARC has no rua= address: you receive no aggregate reports", `Add rua=mailto:dmarc-reports@${d} to the record.`))
  for (const e of m.external_reporting.filter((x) => !x.authorized)) {
    const policyDomain = m.inherited_from ?? d
    add(f("dmarc", "medium", `DMARC ${e.kind}=${e.uri} goes to ${e.domain}, which has not authorized reports for ${policyDomain}: receivers will not send them (RFC 7489 §7.1)`, `Ask the operator of ${e.domain} to publish ${policyDomain}._report._dmarc.${e.domain}. TXT "v=DMARC1".`))
  }
}

const dkimFindings = (i: FindingInput, add: Add) => {
  const d = i.domain
  for (const s of i.dkim.invalidSelectors) add(f("dkim", "info", `dkim_selectors: "${s}" is not a valid selector and was not checked`, null))
  const live = i.dkim.found.filter((k) => !k.revoked)
  if (i.dkim.found.length === 0) {
    if (!i.mx.null_mx) add(f("dkim", "low", `No DKIM key found under ${i.dkim.checked} common selectors`, `If ${d} signs mail, pass its selectors in dkim_selectors; otherwise enable DKIM signing and publish <selector>._domainkey.${d}. TXT "v=DKIM1; k=rsa; p=<2048-bit key>".`))
    return
  }
  for (const k of i.dkim.found) {
    const at = `${k.selector}._domainkey.${d}`
    if (k.errors.length > 0) add(f("dkim", "medium", `DKIM key at ${at} is unusable: ${k.errors.join("; ")}`, `Republish the key at ${at} as "v=DKIM1; k=rsa; p=<base64 SubjectPublicKeyInfo>".`))
    else if (k.key_type === "rsa" && k.key_bits !== null && k.key_bits < 1024) add(f("dkim", "high", `DKIM key at ${at} is RSA ${k.key_bits} bits: forgeable`, `Rotate to a 2048-bit RSA key (or ed25519 beside it) at a new selector and remove ${at}.`))
    else if (k.key_type === "rsa" && k.key_bits !== null && k.key_bits < 2048) add(f("dkim", "medium", `DKIM key at ${at} is RSA ${k.key_bits} bits (2048 recommended, RFC 8301)`, `Rotate to a 2048-bit RSA key at a new selector.`))
    if (k.testing) add(f("dkim", "low", `DKIM key at ${at} is in testing mode (t=y): receivers may ignore its signatures`, `Remove t=y from ${at} once signing works.`))
    if (k.revoked) add(f("dkim", "info", `DKIM key at ${at} is revoked (empty p=)`, null))
  }
  if (live.length === 0) add(f("dkim", "low", "Every DKIM key found is revoked", `Publish an active key for the selector your mail is signed with, or pass it in dkim_selectors.`))
}

const mtaStsFindings = (i: FindingInput, add: Add) => {
  const d = i.domain
  const m = i.mtaSts
  if (m.record === null && m.errors.length === 0) {
    if (i.mx.records.length > 0) add(f("mta_sts", "low", `${d} has no MTA-STS policy: senders cannot require TLS to its MX hosts`, `Publish _mta-sts.${d}. TXT "v=STSv1; id=20250101" and serve https://mta-sts.${d}/.well-known/mta-sts.txt: "version: STSv1\\nmode: enforce\\n${i.mx.records.map((r) => `mx: ${r.host}\\n`).join("")}max_age: 604800".`))
    return
  }
  // fixed: an invalid policy or one disagreeing with the MX set is high.
  if (!m.valid) add(f("mta_sts", "high", `MTA-STS is broken: ${m.errors.join("; ")}`, `Serve a valid policy at https://mta-sts.${d}/.well-known/mta-sts.txt (status 200, text/plain, a certificate valid for mta-sts.${d}, no redirect) listing every MX host (${i.mx.records.map((r) => r.host).join(", ") || "none"}), and change id= in the TXT record after each change.`))
  if (m.policy?.mode === "testing") add(f("mta_sts", "low", "MTA-STS is in testing mode: senders report but still deliver over failed TLS", "Switch the policy to mode: enforce once TLS-RPT reports are clean."))
  if (m.policy?.mode === "none") add(f("mta_sts", "low", "MTA-STS policy mode is none: the policy is withdrawn", "Publish mode: enforce (or remove the TXT record)."))
  if (m.policy !== null && m.policy.max_age < 86400) add(f("mta_sts", "low", `MTA-STS max_age is ${m.policy.max_age} s: senders cache the policy for less than a day`, "Set max_age to at least 604800 (one week; RFC 8461 §3.2 suggests weeks)."))
}

const tlsRptFindings = (i: FindingInput, add: Add) => {
  const d = i.domain
  if (i.tlsRpt.record === null && i.tlsRpt.errors.length === 0) {
    if (i.mx.records.length > 0) add(f("tls_rpt", "low", `${d} has no TLS-RPT record: you get no reports of failed TLS deliveries`, `Publish _smtp._tls.${d}. TXT "v=TLSRPTv1; rua=mailto:tls-reports@${d}".`))
    return
  }
  if (!i.tlsRpt.valid) add(f("tls_rpt", "medium", `TLS-RPT record is invalid: ${i.tlsRpt.errors.join("; ")}`, `Publish _smtp._tls.${d}. TXT "v=TLSRPTv1; rua=mailto:tls-reports@${d}".`))
}

const bimiFindings = (i: FindingInput, add: Add) => {
  const b = i.bimi
  if (b.record === null && b.errors.length === 0) return // BIMI is optional branding: its absence is no finding
  if (!b.valid) add(f("bimi", "low", `BIMI record is invalid: ${b.errors.join("; ")}`, `Publish default._bimi.${i.domain}. TXT "v=BIMI1; l=https://…/logo.svg; a=https://…/vmc.pem".`))
  if (b.record !== null && (i.dmarc.policy !== "quarantine" && i.dmarc.policy !== "reject" || (i.dmarc.pct ?? 100) < 100)) {
    add(f("bimi", "low", "BIMI is published but DMARC is not enforcing (p=quarantine or p=reject at pct=100): mailbox providers will not show the logo", "Enforce DMARC first (p=quarantine or p=reject)."))
  }
  if (b.valid && b.authority === null) add(f("bimi", "info", "BIMI has no a= (Verified Mark Certificate): several providers show no logo without one", null))
}

const daneFindings = (i: FindingInput, add: Add) => {
  for (const o of i.dane) {
    const at = `_25._tcp.${o.host}`
    if (o.error !== null) {
      add(f("dane", "medium", `TLSA lookup at ${at} failed: ${o.error}`, `Make the DNS of ${o.host} answer TLSA queries (a failing lookup makes DANE senders defer mail).`))
      continue
    }
    if (o.tlsa.length === 0) continue // DANE not deployed for this MX: reported in the dane block only
    if (o.status === "bogus") add(f("dane", "high", `TLSA records at ${at} fail DNSSEC validation (${o.reason}): DANE senders will not deliver to ${o.host}`, `Re-sign the zone of ${o.host} and check its DS chain.`))
    else if (o.status !== "secure") add(f("dane", "medium", `TLSA records at ${at} are not DNSSEC-secure (${o.status}${o.reason ? `: ${o.reason}` : ""}): senders ignore them`, `Sign the zone of ${o.host} with DNSSEC and publish its DS at the parent.`))
    const problems = o.tlsa.map(tlsaProblem).filter((p): p is string => p !== null)
    if (o.status === "secure" && problems.length === o.tlsa.length) add(f("dane", "high", `No usable TLSA record at ${at}: ${[...new Set(problems)].join("; ")}`, `Publish "${at}. TLSA 3 1 1 <SHA-256 of the server's public key>" (DANE-EE) or "2 1 1" for your CA's key.`))
    else if (problems.length > 0) add(f("dane", "low", `Some TLSA records at ${at} are unusable: ${[...new Set(problems)].join("; ")}`, "Remove the unusable records; keep DANE-EE (3 1 1) or DANE-TA (2 1 1) records."))
  }
}

const starttlsFindings = (i: FindingInput, add: Add) => {
  if (i.starttls === null) return
  for (const r of i.starttls) {
    const who = `${r.host} (${r.ip})`
    if (r.error !== null && !r.supported) add(f("starttls", "high", `SMTP to ${who} without TLS: ${r.error}`, `Enable STARTTLS on ${r.host} with a certificate valid for ${r.host}.`))
    else if (r.error !== null) add(f("starttls", "high", `STARTTLS on ${who} fails: ${r.error}`, `Fix the TLS configuration of ${r.host}: TLS 1.2 or later, a certificate valid for ${r.host}.`))
    if (r.supported && r.certificate_valid === false) add(f("starttls", "medium", `The certificate of ${who} is not valid for ${r.host}: MTA-STS senders will not deliver`, `Install a certificate for ${r.host} from a public CA.`))
    if (r.tls_version !== null && /^TLSv1(\.[01])?$/.test(r.tls_version)) add(f("starttls", "medium", `${who} negotiated ${r.tls_version}`, `Enable TLS 1.2 and 1.3 on ${r.host}.`))
  }
}

export const emailFindings = (i: FindingInput): ReadonlyArray<EmailFinding> => {
  const out: Array<EmailFinding> = []
  const add: Add = (x) => out.push(x)
  mxFindings(i, add)
  spfFindings(i, add)
  dmarcFindings(i, add)
  dkimFindings(i, add)
  mtaStsFindings(i, add)
  tlsRptFindings(i, add)
  bimiFindings(i, add)
  daneFindings(i, add)
  starttlsFindings(i, add)
  return out
}
