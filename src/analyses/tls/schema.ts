/**
 * The report of `GET /v1/security/tls`, the MCP tool `tls_scan` and the `tls` monitor (see
 * docs/security.md, "TLS configuration scan"): one Schema, its type `typeof TlsReport.Type`.
 */
import { Schema } from "effect"
import { findingOf } from "../mail/schema"

const N = Schema.NullOr

const PerVersion = <S extends Schema.Schema.Any>(s: S) =>
  Schema.Struct({ ssl3: s, tls1_0: s, tls1_1: s, tls1_2: s, tls1_3: s })

export const TlsGrade = Schema.Literal("A+", "A", "A-", "B", "C", "D", "E", "F", "T", "M")

export const TlsCertificate = Schema.Struct({
  subject: Schema.String,
  issuer: Schema.String,
  sans: Schema.Array(Schema.String),
  not_before: Schema.String,
  not_after: Schema.String,
  days_left: Schema.Number,
  key_type: Schema.String.annotations({ description: "RSA, EC, ED25519, …" }),
  key_bits: N(Schema.Number),
  signature_algorithm: Schema.String,
  chain_trusted: Schema.Boolean.annotations({
    description: "the chain the server sent leads to a root of the system store or NODE_EXTRA_CA_CERTS and every certificate is within its validity period"
  }),
  hostname_match: Schema.Boolean,
  chain: Schema.Array(Schema.Struct({ subject: Schema.String, issuer: Schema.String, not_after: Schema.String })),
  ocsp_stapled: N(Schema.Boolean).annotations({ description: "null when the server speaks only TLS 1.3, where the stapled response travels encrypted" }),
  sct_count: Schema.Number.annotations({ description: "SCTs embedded in the leaf (RFC 6962 §3.3)" })
}).annotations({ identifier: "TlsCertificate" })

export const TlsFinding = findingOf(Schema.String)

export const TlsReport = Schema.Struct({
  host: Schema.String,
  port: Schema.Number,
  ip: Schema.String,
  checked_at: Schema.String,
  timings_ms: Schema.Record({ key: Schema.String, value: Schema.Number }).annotations({
    description: "Wall time of each phase (protocols and suites, groups, features, certificate) and of the whole scan"
  }),
  protocols: PerVersion(Schema.Boolean),
  cipher_suites: PerVersion(Schema.Array(Schema.String)).annotations({
    description: "IANA names of the suites each version accepts, in the server's order when it has one"
  }),
  server_preference: N(Schema.Boolean),
  key_exchange: Schema.Struct({
    groups: Schema.Array(Schema.String).annotations({
      description: "every named group the server accepts, as IANA's TLS Supported Groups registry names them (x25519, secp256r1, ffdhe2048, X25519MLKEM768, …)"
    }),
    forward_secrecy: Schema.Boolean,
    post_quantum: Schema.Boolean.annotations({
      description: "the server accepts a post-quantum key exchange group (hybrid X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024, X25519Kyber768Draft00, or pure ML-KEM)"
    })
  }),
  alpn: Schema.Struct({
    http2: Schema.Boolean.annotations({ description: "offered `h2` alone (RFC 7301), the server selected it" }),
    http1_1: Schema.Boolean.annotations({ description: "offered `http/1.1` alone, the server selected it" }),
    negotiated: Schema.Array(Schema.String).annotations({ description: "the protocols the server selected across those offers; empty when it selected none" })
  }).annotations({ identifier: "TlsAlpn" }),
  http3: Schema.Struct({
    advertised: Schema.Boolean.annotations({
      description: "`h3` is named by the Alt-Svc field of an HTTPS answer on this host and port (RFC 7838), or by the alpn of the origin's HTTPS DNS record (RFC 9460)"
    }),
    alt_svc: N(Schema.String).annotations({ description: "the Alt-Svc field of that HTTPS answer, null when absent or when no answer was read" })
  }).annotations({ identifier: "TlsHttp3" }),
  certificate: N(TlsCertificate),
  features: Schema.Struct({
    secure_renegotiation: N(Schema.Boolean).annotations({ description: "RFC 5746; null when the server speaks only TLS 1.3 (no renegotiation)" }),
    fallback_scsv: N(Schema.Boolean).annotations({ description: "RFC 7507; null when the server speaks one version only" }),
    compression: Schema.Boolean,
    heartbeat: Schema.Boolean
  }),
  vulnerabilities: Schema.Struct({ heartbleed: Schema.Boolean }),
  grade: TlsGrade,
  score: Schema.Number.annotations({ description: "SSL Labs' weighted score (protocol 30%, key exchange 30%, cipher 40%), lowered into the band of a capped grade" }),
  findings: Schema.Array(TlsFinding),
  recommendations: Schema.Array(Schema.String),
  limitations: Schema.Array(Schema.String)
})

export type TlsReport = typeof TlsReport.Type
export type TlsCertificate = typeof TlsCertificate.Type
export type TlsFinding = typeof TlsFinding.Type
export type TlsGrade = typeof TlsGrade.Type
