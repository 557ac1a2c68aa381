/**
 * `embedded_sct`: the SCTs embedded in the newest currently valid certificate of a result
 * (docs/operations/ct-logs.md, "embedded_sct"). The members crt.sh listed are downloaded
 * (`GET {base}/?d=<id>`, PEM), parsed with @peculiar/x509, and the list in extension
 * 1.3.6.1.4.1.11129.2.4.2 counted; where crt.sh did not list it or its copy cannot be read, the
 * count read from Cert Spotter's DER of the certificate (not the precertificate) is used. Read from the aggregators, not a TLS
 * handshake: no connection is made to the audited domain and the answer is the listed certificate.
 */
import { Clock, Effect } from "effect"
import { countSctList, sctCompliance, type CtEntry } from "./entries"
import type { CtFetchError } from "./upstream"

export const SCT_LIST_OID = "1.3.6.1.4.1.11129.2.4.2"
export const PRECERT_POISON_OID = "1.3.6.1.4.1.11129.2.4.3"

export interface EmbeddedSct {
  readonly count: number
  readonly chrome_compliant: boolean
  readonly note: string
  readonly certificate_id: number
}

export interface SctVerdict {
  readonly result: EmbeddedSct | null
  readonly note: string | null
}

class Unexaminable {
  constructor(readonly reason: string) {}
}

/** `fetchPem(id, timeoutMs)`: one crt.sh certificate as PEM. */
export const makeSctExaminer = (fetchPem: (id: number, timeoutMs: number) => Effect.Effect<string, CtFetchError>, timeoutMs: number) => {
  const examine = (id: number) =>
    Effect.gen(function*() {
      const pem = yield* fetchPem(id, timeoutMs).pipe(Effect.mapError((e) => new Unexaminable(e.reason.startsWith("certificate") ? e.reason : `certificate ${id}: ${e.reason}`)))
      // The x509 stack is loaded when the first certificate is examined, not at start-up.
      const { asn1, x509 } = yield* Effect.promise(() => import("../pkix/peculiar"))
      const cert = yield* Effect.try({ try: () => new x509.X509Certificate(pem.trim()), catch: (e) => new Unexaminable(`certificate ${id} is not parseable: ${(e as Error).message}`) })
      if (cert.getExtension(PRECERT_POISON_OID)) return { precert: true as const, cert, count: 0 }
      const ext = cert.getExtension(SCT_LIST_OID)
      if (!ext) return { precert: false as const, cert, count: 0 }
      const tls = yield* Effect.try({
        try: () => new Uint8Array(asn1.AsnConvert.parse(ext.value, asn1.OctetString).buffer),
        catch: () => new Unexaminable(`certificate ${id}: SCT list extension is not an OCTET STRING`)
      })
      const count = countSctList(tls)
      if (count === undefined) return yield* Effect.fail(new Unexaminable(`certificate ${id}: malformed SCT list`))
      return { precert: false as const, cert, count }
    })

  const verdict = (count: number, notBefore: Date, notAfter: Date, id: number): SctVerdict => {
    const c = sctCompliance(count, notBefore, notAfter)
    return { result: { count, chrome_compliant: c.chrome_compliant, note: c.note, certificate_id: id }, note: null }
  }

  /**
   * The verdict on a result's entries; `scts` is the result's Cert Spotter counts. Without
   * `download` (crt.sh did not answer for this result) nothing is downloaded: a silent crt.sh
   * would otherwise hold the answer past the operation's deadline after its budget ran out.
   */
  return Effect.fnUntraced(function*(entries: ReadonlyArray<CtEntry>, scts: Readonly<Record<string, number>>, download: boolean) {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const current = entries
      .filter((e) => e.not_after !== null && e.not_after > now && (e.not_before === null || e.not_before <= now))
      .sort((a, b) => ((b.not_before ?? "") > (a.not_before ?? "") ? 1 : (b.not_before ?? "") < (a.not_before ?? "") ? -1 : b.id - a.id))[0]
    if (!current) return { result: null, note: "no currently valid certificate in the CT results" }
    let out: SctVerdict = {
      result: null,
      note: current.ids.length === 0
        ? `certificate ${current.id}: Cert Spotter gave only the precertificate (or no certificate) and crt.sh did not list it; SCTs are embedded in the final certificate`
        : `certificate ${current.id}: only the precertificate is logged; SCTs are embedded in the final certificate`
    }
    if (!download && current.ids.length > 0) out = { result: null, note: `certificate ${current.id}: not downloaded, as crt.sh did not answer for this result` }
    // The final certificate carries the SCTs; try crt.sh's newest-logged member first.
    for (const id of download ? [...current.ids].sort((a, b) => b - a) : []) {
      const r = yield* Effect.either(examine(id))
      if (r._tag === "Left") {
        out = { result: null, note: r.left.reason }
        continue
      }
      if (r.right.precert) continue
      return verdict(r.right.count, r.right.cert.notBefore, r.right.cert.notAfter, id)
    }
    // What Cert Spotter's copy of the certificate held, when crt.sh's could not be read.
    const known = current.certspotter_id === null ? undefined : scts[current.certspotter_id]
    if (known !== undefined && current.not_before !== null && current.not_after !== null) {
      return verdict(known, new Date(current.not_before), new Date(current.not_after), current.id)
    }
    return out
  })
}
