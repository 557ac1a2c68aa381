/** The request head: Host as RFC 9110 7.2 wants it, defaults a browser-like client sends, no header injection. */
import * as net from "node:net"
import type { WireRequest } from "./types"

const userAgent = "domain-intel/0.1 (+https://github.com/domain-intel)"

export const buildRequest = (req: WireRequest): string => {
  const hostHeader = (net.isIPv6(req.host) ? `[${req.host}]` : req.host) +
    ((req.https && req.port === 443) || (!req.https && req.port === 80) ? "" : `:${req.port}`)
  const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${hostHeader}`]
  const given = new Set((req.headers ?? []).map(([k]) => k.toLowerCase()))
  if (!given.has("user-agent")) lines.push(`User-Agent: ${userAgent}`)
  if (!given.has("accept")) lines.push("Accept: */*")
  if (!given.has("accept-encoding")) lines.push(`Accept-Encoding: ${req.decompress ? "gzip, deflate, br" : "identity"}`)
  for (const [k, v] of req.headers ?? []) {
    if (/[\r\n]/.test(k) || /[\r\n]/.test(v)) continue
    lines.push(`${k}: ${v}`)
  }
  lines.push("Connection: close", "", "")
  return lines.join("\r\n")
}
