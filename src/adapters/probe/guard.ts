/**
 * The target guard shared by every operation that contacts a host a user named.
 * Pure part: URL normalisation (WHATWG URL parsing folds decimal, hex, octal and short IPv4
 * forms) and address classification (addressClass.ts).
 * Effectful part: resolve through DnsResolver and refuse unless every address is public, then
 * hand back the vetted address so the connection goes to it and nowhere else.
 */
import { Effect } from "effect"
import { isIP } from "node:net"
import { AppConfig } from "../../platform/Config"
import { InvalidRequest, TargetForbidden } from "../../kernel/errors"
import { DnsResolver, type DnsError, type DnsResolverShape } from "../dns/DnsResolver"
import { classifyAddress } from "./addressClass"

export { type AddressClass, classifyAddress } from "./addressClass"

const metadataNames = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
  "metadata.packet.net"
])

export const isMetadataName = (host: string) => metadataNames.has(host.toLowerCase().replace(/\.$/, ""))

export interface ParsedTarget {
  readonly url: URL
  /** Host name without brackets, lower case, no trailing dot. */
  readonly host: string
  readonly port: number
  /** The host is an IP literal. */
  readonly literal: boolean
}

/**
 * Parses a user-given target: a full http(s) URL, a bare host name or an IP address
 * (`http://` is prepended when no scheme is given). Only http and https pass.
 */
export const parseTarget = (input: string): ParsedTarget | InvalidRequest | TargetForbidden => {
  const raw = input.trim()
  if (raw.length === 0) return new InvalidRequest({ message: "a URL or domain is required" })
  if (raw.length > 2048) return new InvalidRequest({ message: "URL longer than 2048 characters" })
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw)
  const hasScheme = schemeMatch !== null && (raw.slice(schemeMatch[0].length).startsWith("//") || !/^\d+$/.test(raw.slice(schemeMatch[0].length).split("/")[0]))
  let withScheme = raw
  if (hasScheme) {
    const scheme = schemeMatch![1].toLowerCase()
    if (scheme !== "http" && scheme !== "https") {
      return new TargetForbidden({ message: `scheme ${scheme}: is not allowed; only http and https` })
    }
  } else {
    withScheme = `http://${raw}`
  }
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return new InvalidRequest({ message: `not a valid URL or host name: ${raw}` })
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return new TargetForbidden({ message: `scheme ${url.protocol} is not allowed; only http and https` })
  }
  if (url.username || url.password) {
    return new InvalidRequest({ message: "URLs with credentials are not accepted" })
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()
  if (host.length === 0) return new InvalidRequest({ message: "URL has no host" })
  const literal = isIP(host) !== 0
  if (!literal && !/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/.test(host)) {
    return new InvalidRequest({ message: `not a valid host name: ${host}` })
  }
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80
  return { url, host, port, literal }
}

export interface VettedTarget extends ParsedTarget {
  /** The address to connect to: vetted, so nothing resolves the name again. */
  readonly address: string
  readonly dnsMs: number
}

export class TargetUnresolvable {
  readonly _tag = "TargetUnresolvable"
  constructor(readonly host: string, readonly reason: string) {}
  get message() { return `could not resolve ${this.host}: ${this.reason}` }
}

/**
 * Whether an address may be contacted at all: never a cloud metadata address, a non-public one
 * only with ALLOW_PRIVATE_TARGETS (for connections that are not HTTP: a TCP connect, a DNS query).
 */
export const mayContact = (addr: string, allowPrivate: boolean): boolean => {
  const c = classifyAddress(addr)
  return c !== "metadata" && (c !== "private" || allowPrivate)
}

/** The refusal for one address of a target, or undefined when it may be contacted. */
export const refusal = (target: ParsedTarget, addr: string, allowPrivate: boolean): TargetForbidden | undefined => {
  const c = classifyAddress(addr)
  const what = target.literal ? "is" : "resolves to"
  if (c === "metadata") return new TargetForbidden({ message: `${target.host} ${what} a cloud metadata address` })
  if (c === "private" && !allowPrivate) return new TargetForbidden({ message: `${target.host} ${what} a non-public address` })
  return undefined
}

/** Vets a parsed target: metadata names, literal classes, and every resolved address. */
export const vetTarget = (target: ParsedTarget) =>
  Effect.flatMap(AppConfig, (config) => Effect.flatMap(DnsResolver, (resolver) => vetTargetWith(config.allowPrivateTargets, resolver)(target)))

/**
 * A target to be reached at one address the caller resolved itself (an AAAA record, to compare
 * what a site serves over each address family): judged as a resolved address is, and the name
 * is not resolved again.
 */
export const vetPinnedWith = (allowPrivateTargets: boolean) => (target: ParsedTarget, address: string): Effect.Effect<VettedTarget, TargetForbidden> =>
  Effect.suspend(() => {
    if (isMetadataName(target.host)) return Effect.fail(new TargetForbidden({ message: `${target.host} is a cloud metadata host` }))
    const refused = refusal(target, address, allowPrivateTargets)
    return refused ? Effect.fail(refused) : Effect.succeed({ ...target, address, dnsMs: 0 } satisfies VettedTarget)
  })

/**
 * `vetTarget` over a given setting and resolver: the probe vets every hop of every request
 * (monitors: hundreds a second), and providing both to each call copied the fiber's context
 * twice per hop.
 */
export const vetTargetWith = (allowPrivateTargets: boolean, resolver: DnsResolverShape) => (target: ParsedTarget) =>
  Effect.gen(function*() {
    // Refusals say that the target is not public, never where a name points: the answer
    // comes from the operator's resolver and may map internal networks.
    const judge = (addr: string): TargetForbidden | undefined => refusal(target, addr, allowPrivateTargets)
    if (isMetadataName(target.host)) {
      return yield* new TargetForbidden({ message: `${target.host} is a cloud metadata host` })
    }
    if (target.literal) {
      const refusal = judge(target.host)
      if (refusal) return yield* refusal
      return { ...target, address: target.host, dnsMs: 0 } satisfies VettedTarget
    }
    if (target.host === "localhost" || target.host.endsWith(".localhost")) {
      // RFC 6761: always loopback, never sent to DNS.
      const refusal = judge("127.0.0.1")
      if (refusal) return yield* refusal
      return { ...target, address: "127.0.0.1", dnsMs: 0 } satisfies VettedTarget
    }
    const t0 = performance.now()
    const addresses = yield* resolver.lookupAddresses(target.host).pipe(
      Effect.mapError((e: DnsError) => new TargetUnresolvable(target.host, e.message))
    )
    const dnsMs = performance.now() - t0
    if (addresses.length === 0) return yield* Effect.fail(new TargetUnresolvable(target.host, "no A or AAAA records"))
    for (const a of addresses) {
      const refusal = judge(a)
      if (refusal) return yield* refusal
    }
    // Prefer IPv4: loopback test rigs and most origins answer there.
    const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0]
    return { ...target, address, dnsMs } satisfies VettedTarget
  })
