/** The `domain` query parameter of the DNS and CT operations: a bare domain name (a URL is reduced to its host). */
import { isIP } from "node:net"
import { InvalidRequest } from "./errors"
import { memoize } from "./memo"

/** Accepted inputs and their names, remembered (the same domains are asked again and again); bounded. */
export const normalizeDomain: (input: string) => string | InvalidRequest = memoize((input: string) => normalize(input), 1_000, (name) => typeof name === "string")

const normalize = (input: string): string | InvalidRequest => {
  let s = input.trim().toLowerCase()
  if (s.length === 0) return new InvalidRequest({ message: "domain is required" })
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(s)) {
    try {
      s = new URL(s).hostname
    } catch {
      return new InvalidRequest({ message: `not a valid domain or URL: ${input}` })
    }
  }
  s = s.replace(/\.$/, "")
  // Only dotted digits or a colon can spell an IP address (isIP's regular expressions are not cheap).
  if ((s.includes(":") || /^[\d.]+$/.test(s)) && isIP(s.replace(/^\[|\]$/g, "")) !== 0) return new InvalidRequest({ message: "domain must be a domain name, not an IP address" })
  if (s.length > 253 || !/^([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/.test(s)) {
    return new InvalidRequest({ message: `not a valid domain name: ${input}` })
  }
  return s
}
