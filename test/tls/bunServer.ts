/**
 * TLS servers on Bun's own TLS stack (BoringSSL), run as a child process by the TLS lab so that
 * nothing they do waits on the test's event loop (and `spawnSync` of sslscan or s_client in the
 * test cannot stall them). One JSON argument:
 *  - `serve`: `Bun.serve` with `tls` (no ALPN; BoringSSL's default groups, X25519MLKEM768 among
 *    them), answering every request with `headers`;
 *  - `tls`: `node:tls` with `ciphers`, `minVersion`, `maxVersion` (3DES-only is possible here,
 *    Debian's OpenSSL 3.0 has no 3DES suites);
 *  - `http2`: `node:http2` secure server with `allowHTTP1` (ALPN `h2` and `http/1.1`).
 * Prints `LISTENING <port>` once it accepts connections.
 */
import { readFileSync } from "node:fs"
import * as http2 from "node:http2"
import * as tls from "node:tls"

interface Spec {
  readonly kind: "serve" | "tls" | "http2"
  readonly cert: string
  readonly key: string
  readonly chain?: string
  readonly headers?: Record<string, string>
  readonly ciphers?: string
  readonly minVersion?: tls.SecureVersion
  readonly maxVersion?: tls.SecureVersion
}

const spec = JSON.parse(process.argv[2]) as Spec
const cert = readFileSync(spec.cert, "utf8") + (spec.chain ? readFileSync(spec.chain, "utf8") : "")
const key = readFileSync(spec.key, "utf8")
const listening = (port: number) => console.log(`LISTENING ${port}`)

if (spec.kind === "serve") {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert, key }, fetch: () => new Response("ok", { headers: spec.headers ?? {} }) })
  listening(server.port ?? 0)
} else if (spec.kind === "tls") {
  const server = tls.createServer({ cert, key, ciphers: spec.ciphers, minVersion: spec.minVersion, maxVersion: spec.maxVersion }, (s) => {
    s.on("error", () => {})
    s.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
  })
  server.on("tlsClientError", () => {})
  server.listen(0, "127.0.0.1", () => listening((server.address() as { port: number }).port))
} else {
  const server = http2.createSecureServer({ cert, key, allowHTTP1: true }, (_req, res) => {
    for (const [k, v] of Object.entries(spec.headers ?? {})) res.setHeader(k, v)
    res.end("ok")
  })
  server.listen(0, "127.0.0.1", () => listening((server.address() as { port: number }).port))
}
