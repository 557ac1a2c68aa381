/**
 * DNS answers as typed records: one variant per record type, told apart by `type`, each with
 * its RDATA checked and typed once, at the adapter (./fromPacket.ts, from dns-packet's
 * decoding). docs/dns.md › "Typed answers" shows how to read them.
 */
import { typeName } from "./rrtypes"

/** RDATA that does not have its type's shape; the resolver reports it as DnsMalformed. */
export class MalformedRdata extends Error {}

interface RecordOf<T extends string, D> {
  readonly type: T
  /** Owner name as dns-packet reads it: labels joined with `.`, no final dot ("." for the root). */
  readonly name: string
  readonly ttl: number
  /** "IN", "CH", ... or `CLASS<n>`. */
  readonly class: string
  readonly data: D
}

/**
 * A type dns-packet hands over as raw bytes and ./fromPacket.ts decodes: it keeps those bytes,
 * its RDATA as sent, which is also its canonical form (no names, or SVCB's TargetName, never
 * compressed nor lower-cased: RFC 9460 §2.2, RFC 3597 §4, §7).
 */
type RawRecordOf<T extends string, D> = RecordOf<T, D> & { readonly rdata: Buffer }

export interface MxData { readonly preference: number; readonly exchange: string }
export interface SoaData {
  readonly mname: string
  /** The mailbox as a name: a dot inside its local part is written `\.` (RFC 1035 §5.1). */
  readonly rname: string
  readonly serial: number
  readonly refresh: number
  readonly retry: number
  readonly expire: number
  readonly minimum: number
}
export interface SrvData { readonly priority: number; readonly weight: number; readonly port: number; readonly target: string }
export interface CaaData { readonly flags: number; readonly tag: string; readonly value: string; readonly issuerCritical: boolean }
export interface DsData { readonly keyTag: number; readonly algorithm: number; readonly digestType: number; readonly digest: Buffer }
/** DNSKEY RDATA; the protocol field is always 3 (RFC 4034 §2.1.2), anything else is malformed. */
export interface DnskeyData { readonly flags: number; readonly algorithm: number; readonly key: Buffer }
export interface RrsigData {
  /** The covered type's mnemonic (`TYPE<n>` when it has none). */
  readonly typeCovered: string
  readonly algorithm: number
  readonly labels: number
  readonly originalTTL: number
  readonly expiration: number
  readonly inception: number
  readonly keyTag: number
  readonly signersName: string
  readonly signature: Buffer
}
export interface NsecData { readonly nextDomain: string; readonly rrtypes: ReadonlyArray<string> }
export interface Nsec3Data {
  readonly algorithm: number
  readonly flags: number
  readonly iterations: number
  readonly salt: Buffer
  /** The next hashed owner name, raw (base32hex it to compare with owner labels). */
  readonly nextDomain: Buffer
  readonly rrtypes: ReadonlyArray<string>
}
export interface Nsec3ParamData { readonly algorithm: number; readonly flags: number; readonly iterations: number; readonly salt: Buffer }
export interface TlsaData { readonly usage: number; readonly selector: number; readonly matchingType: number; readonly certificate: Buffer }
export interface HinfoData { readonly cpu: string; readonly os: string }
export interface RpData { readonly mbox: string; readonly txt: string }
export interface SshfpData { readonly algorithm: number; readonly hash: number; readonly fingerprint: string }
export interface NaptrData {
  readonly order: number
  readonly preference: number
  readonly flags: string
  readonly services: string
  readonly regexp: string
  readonly replacement: string
}

/** SvcParams of SVCB/HTTPS (RFC 9460 §7, RFC 9461 dohpath, RFC 9540 ohttp); keys in wire order. */
export interface SvcParams {
  /** Keys a client must understand to use the record, by name. */
  readonly mandatory?: ReadonlyArray<string>
  /** ALPN protocol ids (`h2`, `h3`, ...). */
  readonly alpn?: ReadonlyArray<string>
  readonly "no-default-alpn"?: true
  readonly port?: number
  readonly ipv4hint?: ReadonlyArray<string>
  /** ECHConfigList, base64. */
  readonly ech?: string
  readonly ipv6hint?: ReadonlyArray<string>
  readonly dohpath?: string
  readonly ohttp?: true
  /** Keys without a name here: `key<n>` with the value in hex. */
  readonly [key: `key${number}`]: string
}
export interface SvcbData {
  /** 0 is AliasMode, anything else ServiceMode (RFC 9460 §2.4). */
  readonly priority: number
  /** "." means the owner name itself in ServiceMode. */
  readonly target: string
  readonly params: SvcParams
}

export type ARecord = RecordOf<"A", string>
export type AaaaRecord = RecordOf<"AAAA", string>
export type CnameRecord = RecordOf<"CNAME", string>
export type DnameRecord = RecordOf<"DNAME", string>
export type NsRecord = RecordOf<"NS", string>
export type PtrRecord = RecordOf<"PTR", string>
export type MxRecord = RecordOf<"MX", MxData>
/** Character-strings as sent (RFC 1035 §3.3.14); `txtText` joins them. */
export type TxtRecord = RecordOf<"TXT", ReadonlyArray<Buffer>>
export type SpfRecord = RawRecordOf<"SPF", ReadonlyArray<Buffer>>
export type SoaRecord = RecordOf<"SOA", SoaData>
export type SrvRecord = RecordOf<"SRV", SrvData>
export type CaaRecord = RecordOf<"CAA", CaaData>
export type DsRecord = RecordOf<"DS", DsData>
export type CdsRecord = RawRecordOf<"CDS", DsData>
export type DnskeyRecord = RecordOf<"DNSKEY", DnskeyData>
export type CdnskeyRecord = RawRecordOf<"CDNSKEY", DnskeyData>
export type RrsigRecord = RecordOf<"RRSIG", RrsigData>
export type NsecRecord = RecordOf<"NSEC", NsecData>
export type Nsec3Record = RecordOf<"NSEC3", Nsec3Data>
export type Nsec3ParamRecord = RawRecordOf<"NSEC3PARAM", Nsec3ParamData>
export type TlsaRecord = RecordOf<"TLSA", TlsaData>
export type SvcbRecord = RawRecordOf<"SVCB", SvcbData>
export type HttpsRecord = RawRecordOf<"HTTPS", SvcbData>
export type HinfoRecord = RecordOf<"HINFO", HinfoData>
export type RpRecord = RecordOf<"RP", RpData>
export type SshfpRecord = RecordOf<"SSHFP", SshfpData>
export type NaptrRecord = RecordOf<"NAPTR", NaptrData>
/** Any other type: its number and its RDATA bytes (RFC 3597). */
export type UnknownRecord = RecordOf<"UNKNOWN", Buffer> & { readonly code: number }

export type DnsRecord =
  | ARecord | AaaaRecord | CnameRecord | DnameRecord | NsRecord | PtrRecord | MxRecord | TxtRecord | SpfRecord
  | SoaRecord | SrvRecord | CaaRecord | DsRecord | CdsRecord | DnskeyRecord | CdnskeyRecord | RrsigRecord
  | NsecRecord | Nsec3Record | Nsec3ParamRecord | TlsaRecord | SvcbRecord | HttpsRecord | HinfoRecord
  | RpRecord | SshfpRecord | NaptrRecord | UnknownRecord

export type DnsRecordType = DnsRecord["type"]
export type RecordOfType<T extends DnsRecordType> = Extract<DnsRecord, { readonly type: T }>

/** A type guard for one record type, for `filter`. */
export const isRecord = <T extends DnsRecordType>(type: T) => (r: DnsRecord): r is RecordOfType<T> => r.type === type

/** The records of one type. */
export const recordsOf = <T extends DnsRecordType>(records: ReadonlyArray<DnsRecord>, type: T): Array<RecordOfType<T>> =>
  records.filter(isRecord(type))

const dataField = <R extends { readonly data: unknown }>(r: R): R["data"] => r.data

/** The decoded data of the records of one type. */
export const dataOf = <T extends DnsRecordType>(records: ReadonlyArray<DnsRecord>, type: T): Array<RecordOfType<T>["data"]> =>
  recordsOf(records, type).map(dataField)

/** The type's mnemonic, `TYPE<n>` for an unknown one. */
export const typeNameOf = (r: DnsRecord): string => (r.type === "UNKNOWN" ? typeName(r.code) : r.type)

/** A TXT (or SPF) record's strings joined without spaces, as UTF-8 (RFC 7208 §3.3). */
export const txtText = (r: TxtRecord | SpfRecord): string => r.data.map((b) => b.toString("utf8")).join("")
