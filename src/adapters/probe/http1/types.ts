/** The wire client's request, progress, TLS outcome, response and error types. */
import type * as tls from "node:tls"

export interface WireRequest {
  readonly address: string
  readonly port: number
  readonly host: string
  readonly https: boolean
  readonly method: string
  readonly path: string
  readonly headers?: ReadonlyArray<readonly [string, string]>
  /** Bytes of body kept in memory (decoded); reading stops beyond it. */
  readonly maxBodyBytes: number
  /** Ask for and decode gzip/deflate/br. */
  readonly decompress: boolean
  /** false: count body bytes up to the cap without keeping them (size measurement only). */
  readonly keepBody?: boolean
  /** Statuses whose body is not read at all (redirects being followed): headers, then hang up. */
  readonly skipBodyOn?: ReadonlySet<number>
  readonly ca?: ReadonlyArray<string>
  /** Filled in as the exchange goes, so a caller that gives up (a timeout) knows how far it got. */
  readonly progress?: WireProgress
}

/** Milliseconds from the start of an exchange to the TCP connection, and the TLS handshake's own time. */
export interface WireProgress {
  connectMs: number | null
  tlsMs: number | null
}

export interface TlsOutcome {
  readonly authorized: boolean
  readonly error: string | null
  readonly protocol: string | null
  readonly cipher: string | null
  readonly alpn: string | null
  readonly peerCertificate: tls.DetailedPeerCertificate | null
}

export interface WireResponse {
  readonly status: number
  readonly statusText: string
  readonly httpVersion: string
  /** Raw header lines in order. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
  /** Lower-case names; repeated headers joined with ", " (set-cookie kept apart in setCookies). */
  readonly headers: Readonly<Record<string, string>>
  readonly setCookies: ReadonlyArray<string>
  /** Body as received after transfer decoding (and content decoding when asked), capped. */
  readonly body: Buffer
  /** Bytes of body read off the wire (after de-chunking, before content decoding). */
  readonly bodyBytes: number
  readonly truncated: boolean
  readonly tls: TlsOutcome | null
  readonly timings: {
    readonly connectMs: number
    readonly tlsMs: number | null
    readonly ttfbMs: number
    readonly totalMs: number
  }
}

export class WireError extends Error {
  constructor(readonly kind: "timeout" | "fetch_failed" | "malformed_response", message: string) {
    super(message)
  }
}
