/**
 * The `domain` parameter of every operation that takes one (docs/architecture.md, "One decision,
 * one place"): a bare host name; `http://host[/]` and `https://host[/]` are reduced to `host`;
 * anything else that is not a host name is `400 invalid_request` saying what was wrong: another
 * scheme, userinfo, a port, a path beyond `/`, a query or fragment, an IP address where a zone is
 * expected. `DomainParam` decodes to the normalised host, so a REST query string and an MCP
 * tool's arguments are held to the same rule by the same schema; `normalizeDomain` is the same
 * decision for values that are not request parameters (monitor targets).
 */
import { isIP } from "node:net"
import { ParseResult, Schema } from "effect"
import { InvalidRequest } from "./errors"
import { memoize } from "./memo"

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//
const LABELS = /^([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/
const refuse = (input: string, why: string) => new InvalidRequest({ message: `domain must be a host name such as example.com: ${JSON.stringify(input)} ${why}` })

const normalize = (input: string): string | InvalidRequest => {
  const raw = input.trim()
  let s = raw.toLowerCase()
  if (s.length === 0) return new InvalidRequest({ message: "domain is required" })
  const scheme = SCHEME.exec(s)
  if (scheme !== null) {
    if (scheme[1] !== "http" && scheme[1] !== "https") return refuse(raw, `has the scheme ${scheme[1]}:// (only http:// and https:// are reduced to their host)`)
    s = s.slice(scheme[0].length)
    // Only "host" or "host/" may follow the scheme.
    if (s.endsWith("/")) s = s.slice(0, -1)
  }
  if (s.includes("@")) return refuse(raw, "has a user part (user@)")
  if (s.includes("?")) return refuse(raw, "has a query")
  if (s.includes("#")) return refuse(raw, "has a fragment")
  if (s.includes("/")) return refuse(raw, "has a path")
  // IPv6 literals ("::1", "[::1]") before the port test: their colons are not ports.
  const bare = s.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "")
  if ((bare.includes(":") || /^[\d.]+$/.test(bare)) && isIP(bare) !== 0) return refuse(raw, "is an IP address, not a domain name")
  if (/:\d*$/.test(s)) return refuse(raw, "has a port")
  s = s.replace(/\.$/, "")
  if (s.length > 253 || !LABELS.test(s)) return refuse(raw, "is not a valid domain name")
  return s
}

/** The host name `input` names, or the 400 it earns; remembered (the same names are asked again and again), bounded. */
export const normalizeDomain: (input: string) => string | InvalidRequest = memoize(normalize, 1_000, (name) => typeof name === "string")

/**
 * The parameter's schema: a string of 1-300 characters that decodes to the host it names (lower
 * case, no trailing dot, `http(s)://` and a final `/` removed), or fails with `normalizeDomain`'s
 * message. Encoding gives the host back.
 */
export const DomainParam = Schema.transformOrFail(
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)),
  Schema.String,
  {
    strict: true,
    decode: (input, _options, ast) => {
      const host = normalizeDomain(input)
      return host instanceof InvalidRequest ? ParseResult.fail(new ParseResult.Type(ast, input, host.message)) : ParseResult.succeed(host)
    },
    encode: ParseResult.succeed
  }
).annotations({
  description: "A host name such as example.com; http://example.com/ and https://example.com/ are accepted as example.com. No port, path, query, user or other scheme"
})

/**
 * The page operations' `domain` (Content Freshness, WAF Detection): a bare domain or a full
 * http(s) URL of the page; `pageInputProblem` (applied by the page analyses, which monitors call
 * too) decides what else is refused.
 */
export const PageParam = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048))

/**
 * The page operations (Content Freshness, WAF Detection) take a bare domain or a full http(s)
 * URL: a full URL may name a port and a page; anything else is held to the rules above
 * (another scheme, `user@`, and on a bare domain a port, a path or a query are 400
 * invalid_request).
 */
export const pageInputProblem = (input: string): InvalidRequest | null => {
  const raw = input.trim()
  const scheme = SCHEME.exec(raw.toLowerCase())
  if (scheme !== null && scheme[1] !== "http" && scheme[1] !== "https") return refuse(raw, `has the scheme ${scheme[1]}:// (only http:// and https:// are fetched)`)
  const authority = raw.slice(scheme?.[0].length ?? 0).split(/[/?#]/)[0]
  if (authority.includes("@")) return refuse(raw, "has a user part (user@)")
  if (scheme === null) {
    // Not a full URL, so a bare domain: no port, nothing after the host but an optional "/"
    // (a port or a page is named with a full http(s) URL).
    if (/^(?:\[[^\]]*\]|[^:]*):\d*$/.test(authority)) return refuse(raw, "has a port (a bare domain takes none; name it in a full http(s) URL)")
    const rest = raw.slice(authority.length)
    if (rest !== "" && rest !== "/") return refuse(raw, "has a path or query (a bare domain takes none; name the page with a full http(s) URL)")
  }
  return null
}
