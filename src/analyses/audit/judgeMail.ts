/**
 * The mail section of the domain audit (pure), from the Email Security report and the blocklist
 * report. A domain with no MX host (none at all, or only an RFC 7505 null MX) receives no mail:
 * only `mail_spf` (which must end in -all) and `mail_dmarc` (which must be p=reject) are judged,
 * the others do not apply (docs/operations/domain-audit.md, "Mail").
 */
import type { BlocklistReport } from "../blocklist/schema"
import type { EmailSecurityReport } from "../mail/schema"
import { type CheckId, checksOf } from "./checks"
import { mailIpv6 } from "./ipv6"
import { blocklistStanding, type CheckResult, decided, from, fromVerdict, type Input, isUnavailable, notApplicable, undecided } from "./judge"

export interface MailInputs {
  readonly email: Input<EmailSecurityReport>
  /** Whether STARTTLS was asked (`starttls=true`); `mail_starttls` is judged only then. */
  readonly starttls: boolean
  /** The blocklist report whose `lists` hold the MX addresses on the IP lists. */
  readonly blocklist: Input<BlocklistReport>
}

const notTested = notApplicable("mail_starttls", "STARTTLS was not tested: starttls=true was not asked")

const NO_MAIL_ONLY: ReadonlyArray<CheckId> = ["mail_dkim", "mail_mta_sts", "mail_tls_rpt", "mail_dane", "mail_ipv6", "mail_starttls", "mail_blocklist"]

/** mail_starttls from the STARTTLS probes of every MX address. */
const starttlsCheck = (probes: NonNullable<EmailSecurityReport["starttls"]>): CheckResult => {
  if (probes.length === 0) return decided("mail_starttls", false, "no MX address could be tried")
  const bad = probes.filter((s) => !s.supported || s.tls_version === null || !/^TLSv1\.[23]$/.test(s.tls_version))
  return bad.length === 0
    ? decided("mail_starttls", true, `${probes.length} MX ${probes.length === 1 ? "address" : "addresses"}`)
    : decided("mail_starttls", false, bad.map((s) => `${s.host} (${s.ip}): ${s.supported ? s.tls_version ?? "no TLS" : s.error ?? "no STARTTLS"}`).join("; "))
}

export const judgeMail = (m: MailInputs): ReadonlyArray<CheckResult> => {
  if (isUnavailable(m.email)) {
    const why = m.email.unavailable
    return checksOf("mail").map((id) =>
      id === "mail_starttls" && !m.starttls ? notTested : undecided(id, why))
  }
  const e = m.email
  const hosts = e.mx.records
  const noMail = hosts.length === 0
  const spf = e.spf
  const spfEnd = spf.all === "fail" ? "-all" : spf.all === "softfail" ? "~all" : spf.all === "pass" ? "+all" : spf.all === "neutral" ? "?all" : "no all"
  const spfResult = spf.record === null
    ? decided("mail_spf", false, "no SPF record")
    : !spf.valid
    ? decided("mail_spf", false, `invalid: ${spf.errors[0] ?? "the record does not evaluate"}`)
    : decided("mail_spf", spf.all === "fail" || (!noMail && spf.all === "softfail"), noMail && spf.all !== "fail" ? `ends in ${spfEnd}; a domain that receives no mail should say v=spf1 -all` : `ends in ${spfEnd}`)
  const policy = e.dmarc.valid ? e.dmarc.policy : null
  const dmarcResult = e.dmarc.record === null && e.dmarc.inherited_from === null
    ? decided("mail_dmarc", false, "no DMARC record")
    : policy === null
    ? decided("mail_dmarc", false, `invalid: ${e.dmarc.errors[0] ?? "no policy"}`)
    : decided("mail_dmarc", policy === "reject" || (!noMail && policy === "quarantine"), `p=${policy}${e.dmarc.inherited_from ? ` (from ${e.dmarc.inherited_from})` : ""}${noMail && policy !== "reject" ? "; a domain that receives no mail should say p=reject" : ""}`)
  if (noMail) {
    const why = e.mx.null_mx ? "the domain accepts no mail (null MX)" : "the domain has no MX record"
    return [spfResult, dmarcResult, ...NO_MAIL_ONLY.map((id) => notApplicable(id, `Does not apply: ${why}`))]
  }

  const keys = e.dkim.selectors_found.filter((k) => !k.revoked)
  const weak = keys.filter((k) => k.key_type === null || (k.key_type === "rsa" && (k.key_bits === null || k.key_bits < 1024)))
  const dkim = keys.length === 0
    ? decided("mail_dkim", false, `no key among ${e.dkim.selectors_checked.length} selectors checked`)
    : decided("mail_dkim", weak.length === 0, weak.length === 0
      ? keys.map((k) => `${k.selector} ${k.key_type} ${k.key_bits ?? "?"} bits`).join(", ")
      : weak.map((k) => `${k.selector}: ${k.key_type === null ? "the key cannot be read" : `${k.key_bits ?? "unknown"} bits`}`).join(", "))

  const sts = e.mta_sts
  const stsMode = sts.policy?.mode ?? null
  const mtaSts = decided("mail_mta_sts", sts.valid && (stsMode === "enforce" || stsMode === "testing"),
    sts.record === null ? "no _mta-sts record" : !sts.valid ? (sts.errors[0] ?? "invalid") : `mode ${stsMode}`)

  const tlsRpt = decided("mail_tls_rpt", e.tls_rpt.record !== null && e.tls_rpt.valid, e.tls_rpt.record === null ? "no _smtp._tls record" : e.tls_rpt.valid ? null : (e.tls_rpt.errors[0] ?? "invalid"))

  const unprotected = hosts.filter((h) => !e.dane.mx.some((d) => d.host === h.host && d.valid)).map((h) => h.host)
  const dane = decided("mail_dane", unprotected.length === 0, unprotected.length === 0 ? null : `no valid DNSSEC-signed TLSA for ${unprotected.join(", ")}`)

  const v6 = mailIpv6(hosts)
  const ipv6 = fromVerdict("mail_ipv6", v6)

  const starttls = !m.starttls || e.starttls === null ? notTested : starttlsCheck(e.starttls)

  const blocklist = from("mail_blocklist", m.blocklist, (b) => blocklistStanding("mail_blocklist", b, hosts.flatMap((h) => h.ips)))

  return [spfResult, dmarcResult, dkim, mtaSts, tlsRpt, dane, ipv6, starttls, blocklist]
}
