/**
 * ALPN (RFC 7301): which of `h2` and `http/1.1` the server selects when a client offers each one
 * alone. Below TLS 1.3 the selection travels in the ServerHello, in the clear, so one crafted
 * hello per offer reads it (TlsScan); a TLS 1.3-only server sends it in the encrypted
 * EncryptedExtensions, so there the runtime's TLS client completes a handshake per offer.
 */
import { EXT } from "./clientHello"
import type { TlsReport } from "./schema"
import type { ServerHelloFacts } from "./serverHello"

export const ALPN_OFFERS = ["h2", "http/1.1"] as const
export type AlpnOffer = (typeof ALPN_OFFERS)[number]

/** What one offer got: the protocol the server selected (null: none), or no answer to tell. */
export type AlpnAnswer =
  | { readonly offer: AlpnOffer; readonly selected: string | null }
  | { readonly offer: AlpnOffer; readonly failed: string }

/** The protocol of the ServerHello's ALPN extension: a one-name ProtocolNameList (RFC 7301 §3.1). */
export const selectedProtocol = (hello: ServerHelloFacts): string | null => {
  const body = hello.extensions.get(EXT.alpn)
  if (!body || body.length < 3) return null
  const name = body.subarray(3, 3 + body[2])
  // Protocol ids are octet strings; anything outside printable ASCII is shown escaped.
  return name.length === 0 ? null : [...name].map((b) => (b >= 0x21 && b <= 0x7e ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`)).join("")
}

export const alpnReport = (answers: ReadonlyArray<AlpnAnswer>): TlsReport["alpn"] => {
  const selected = answers.flatMap((a) => ("selected" in a && a.selected !== null ? [{ offer: a.offer, selected: a.selected }] : []))
  return {
    http2: selected.some((a) => a.offer === "h2" && a.selected === "h2"),
    http1_1: selected.some((a) => a.offer === "http/1.1" && a.selected === "http/1.1"),
    negotiated: [...new Set(selected.map((a) => a.selected))]
  }
}
