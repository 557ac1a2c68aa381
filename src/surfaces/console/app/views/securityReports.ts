/**
 * The TLS configuration scan and the HTTP security grade as a person reads them: grade first,
 * then what decided it. Field names are the REST reports'
 * (docs/operations/tls-scan.md and docs/operations/security-headers.md, "Report").
 */
import { type Child, fmt, h, table } from "../dom"
import { headline, kv, list, yesNo } from "./reports"

const PROTOCOLS: ReadonlyArray<readonly [string, string, boolean]> = [
  // [report key, label, still acceptable]: SSL 3.0, TLS 1.0 and 1.1 are deprecated (RFC 7568, RFC 8996).
  ["ssl3", "SSL 3.0", false],
  ["tls1_0", "TLS 1.0", false],
  ["tls1_1", "TLS 1.1", false],
  ["tls1_2", "TLS 1.2", true],
  ["tls1_3", "TLS 1.3", true]
]

/** An on/off badge: an accepted deprecated protocol is red, an accepted current one green. */
const protocolBadge = (label: string, on: boolean, current: boolean) =>
  h("li", {}, h("span", { class: `badge proto ${on ? (current ? "on" : "on-bad") : "off"}`, "data-protocol": label, "aria-label": `${label}: ${on ? "on" : "off"}` }, `${label} ${on ? "on" : "off"}`))

/**
 * The grade caps: the service writes each as a finding whose message names SSL Labs' rating rule
 * (`rating rule "…": grade capped at B`, or `grade T` / `grade M` for trust and name).
 */
const capOf = (f: any): { rule: string; effect: string } | null => {
  const m = /rating rule "([^"]+)": ([^)]+)\)\s*$/.exec(f.message ?? "")
  return m ? { rule: m[1], effect: m[2] } : null
}

/** Marks a table for the narrow-screen layout of console.css (rows as small cards, no sideways scroll). */
const stacked = (wrap: HTMLElement, kind: string) => {
  wrap.querySelector("table")?.classList.add(kind)
  return wrap
}

const severity = (s: string) => h("span", { class: `badge sev-${s}` }, s)

const optional = (b: boolean | null | undefined, none: string) => (b === null || b === undefined ? none : yesNo(b))

export const tlsReport = (r: any) => {
  const findings: ReadonlyArray<any> = r.findings ?? []
  const caps = findings.map(capOf).filter((c): c is { rule: string; effect: string } => c !== null)
  const c = r.certificate
  const enabled = PROTOCOLS.filter(([k]) => (r.cipher_suites?.[k] ?? []).length > 0)
  const order = r.server_preference === true ? "server order" : r.server_preference === false ? "client order: the server has no preference" : "order not determined"
  return h(
    "div",
    {},
    headline(r.grade, r.score, `TLS on ${r.host}:${r.port}`, h("div", { class: "score" }, `${r.ip} · scanned in ${fmt.ms(r.timings_ms?.total ?? null)} · checked ${fmt.date(r.checked_at)}`)),
    list("Grade caps", caps.map((k) => h("span", {}, h("strong", {}, k.rule), ` → ${k.effect}`)), "caps"),
    h("section", { class: "report-list" }, h("h4", {}, "Protocols"), h("ul", { class: "badges", "aria-label": "Protocols" }, PROTOCOLS.map(([k, label, current]) => protocolBadge(label, r.protocols?.[k] === true, current)))),
    enabled.map(([k, label]) =>
      table(["#", "Cipher suite"], r.cipher_suites[k].map((s: string, i: number) => [String(i + 1), h("code", {}, s)]), `${label} cipher suites (${order})`)
    ),
    h("h4", {}, "Key exchange"),
    kv([
      ["Groups", (r.key_exchange?.groups ?? []).length > 0 ? h("ul", { class: "badges" }, r.key_exchange.groups.map((g: string) => h("li", {}, h("span", { class: "badge" }, g)))) : "none (no ECDHE/TLS 1.3)"],
      ["Forward secrecy", yesNo(r.key_exchange?.forward_secrecy)],
      ["Post-quantum key exchange", yesNo(r.key_exchange?.post_quantum)],
      ["Server picks the suite", optional(r.server_preference, "undetermined")]
    ]),
    h("h4", {}, "Application protocols"),
    kv([
      ["HTTP/2 (ALPN h2)", yesNo(r.alpn?.http2)],
      ["HTTP/1.1 (ALPN)", yesNo(r.alpn?.http1_1)],
      ["HTTP/3 advertised", yesNo(r.http3?.advertised)],
      ["Alt-Svc", r.http3?.alt_svc ?? null]
    ]),
    h("h4", {}, "Certificate"),
    c === null || c === undefined
      ? h("p", { class: "muted" }, "No certificate was obtained.")
      : [
          kv([
            ["Subject", c.subject],
            ["Issuer", c.issuer],
            ["Names", (c.sans ?? []).join(", ")],
            ["Valid", `${fmt.date(c.not_before)} – ${fmt.date(c.not_after)}`],
            ["Days left", h("span", { class: c.days_left < 0 ? "bad-text" : c.days_left < 14 ? "warn-text" : "" }, String(c.days_left))],
            ["Key", `${c.key_type}${c.key_bits === null ? "" : ` ${c.key_bits} bits`}`],
            ["Signature", c.signature_algorithm],
            ["Chain trusted", h("span", { class: c.chain_trusted ? "ok-text" : "bad-text" }, yesNo(c.chain_trusted))],
            ["Hostname match", h("span", { class: c.hostname_match ? "ok-text" : "bad-text" }, yesNo(c.hostname_match))],
            ["OCSP stapled", optional(c.ocsp_stapled, "not visible (TLS 1.3 only)")],
            ["SCTs embedded", String(c.sct_count)]
          ]),
          (c.chain ?? []).length > 0 ? table(["Subject", "Issuer", "Valid until"], c.chain.map((x: any) => [x.subject, x.issuer, fmt.date(x.not_after)]), "Certificate chain") : null
        ],
    h("h4", {}, "Features and vulnerabilities"),
    kv([
      ["Secure renegotiation (RFC 5746)", optional(r.features?.secure_renegotiation, "n/a (TLS 1.3 only)")],
      ["Fallback SCSV (RFC 7507)", optional(r.features?.fallback_scsv, "n/a (one protocol)")],
      ["TLS compression", yesNo(r.features?.compression)],
      ["Heartbeat", yesNo(r.features?.heartbeat)],
      ["Heartbleed", h("span", { class: r.vulnerabilities?.heartbleed ? "bad-text" : "ok-text" }, r.vulnerabilities?.heartbleed ? "VULNERABLE" : "not vulnerable")]
    ]),
    findings.length > 0
      ? stacked(table(["Severity", "Check", "Finding", "Recommendation"], findings.map((f) => [severity(f.severity), f.check, f.message, f.recommendation ?? h("span", { class: "fix none" }, "–")]), "Findings"), "stack-findings")
      : h("p", { class: "muted" }, "No findings."),
    list("Limitations", r.limitations ?? [])
  )
}

const TEST_LABELS: Record<string, string> = {
  "content-security-policy": "Content Security Policy",
  cookies: "Cookies",
  "cross-origin-resource-sharing": "Cross-origin resource sharing",
  "cross-origin-resource-policy": "Cross-Origin-Resource-Policy",
  redirection: "Redirection",
  "referrer-policy": "Referrer Policy",
  "strict-transport-security": "Strict Transport Security",
  "subresource-integrity": "Subresource Integrity",
  "x-content-type-options": "X-Content-Type-Options",
  "x-frame-options": "X-Frame-Options"
}

const modifier = (n: number) => h("span", { class: n > 0 ? "ok-text" : n < 0 ? "bad-text" : "" }, n > 0 ? `+${n}` : String(n))

const passBadge = (pass: boolean) => h("span", { class: `badge ${pass ? "ok" : "pending"}` }, pass ? "pass" : "fail")

const headerExtra = (name: string, e: any): ReadonlyArray<Child> => [name, yesNo(e?.present), e?.value ? h("code", {}, e.value) : "–", e?.present ? yesNo(e.valid) : "–"]

export const headersReport = (r: any) => {
  const tests = Object.entries(r.tests ?? {}) as Array<[string, any]>
  const sec = r.extras?.security_txt
  const pp = r.extras?.permissions_policy
  return h(
    "div",
    {},
    headline(r.grade, null, `HTTP security of ${r.final_url}`, h("div", { class: "score" }, `Score ${r.score} · ${r.tests_passed} of ${r.tests_quantity} tests passed · checked ${fmt.date(r.checked_at)}`)),
    r.url !== r.final_url ? kv([["Requested", r.url], ["Final URL", r.final_url]]) : null,
    stacked(table(
      ["Test", "Result", "Outcome", "Score", "Fix"],
      tests.map(([name, t]) => [
        h("span", { "data-test": name }, TEST_LABELS[name] ?? name),
        passBadge(t.pass),
        h("div", {}, h("code", {}, t.result), h("div", { class: "muted small" }, t.description), t.pass && t.recommendation ? h("div", { class: "muted small advice" }, `Optional: ${t.recommendation}`) : null),
        modifier(t.score_modifier),
        !t.pass && t.recommendation ? h("span", { class: "fix" }, t.recommendation) : h("span", { class: "fix none" }, "–")
      ]),
      "Tests (the MDN HTTP Observatory's)"
    ), "stack-tests"),
    table(
      ["Extra (not scored)", "Present", "Value", "Valid"],
      [
        ["Permissions-Policy", yesNo(pp?.present), pp?.value ? h("div", {}, h("code", {}, pp.value), h("div", { class: "muted small" }, `features: ${(pp.features ?? []).join(", ") || "none"}`)) : "–", "–"],
        headerExtra("Cross-Origin-Opener-Policy", r.extras?.cross_origin_opener_policy),
        headerExtra("Cross-Origin-Embedder-Policy", r.extras?.cross_origin_embedder_policy),
        [
          "security.txt (RFC 9116)",
          yesNo(sec?.present),
          sec?.present
            ? h("ul", { class: "plain" }, h("li", {}, sec.url), h("li", {}, `Contact: ${(sec.contact ?? []).join(", ") || "none"}`), h("li", {}, `Expires: ${fmt.date(sec.expires)}${sec.expired ? " (expired)" : ""}`), sec.signed ? h("li", {}, "signed (OpenPGP)") : null, (sec.errors ?? []).map((e: string) => h("li", { class: "bad-text" }, e)))
            : sec?.url ?? "–",
          sec?.present ? yesNo(sec.valid) : "–"
        ]
      ],
      "Extras"
    )
  )
}
