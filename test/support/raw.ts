/**
 * One HTTP/1.1 request over a plain TCP socket, with the request target sent byte for byte
 * (fetch normalizes paths such as `//v1/...` before sending), `Connection: close`.
 */
import { connect } from "node:net"

export interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

export const rawRequest = (
  port: number,
  method: string,
  target: string,
  options: { readonly headers?: Record<string, string>; readonly body?: string } = {}
): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, connection: "close", ...options.headers }
    if (options.body !== undefined) headers["content-length"] = String(Buffer.byteLength(options.body))
    socket.on("connect", () => {
      socket.write(`${method} ${target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`)
      if (options.body !== undefined) socket.write(options.body)
    })
    socket.on("data", (d: Buffer) => chunks.push(d))
    socket.on("error", reject)
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      const split = text.indexOf("\r\n\r\n")
      if (split === -1) return reject(new Error(`no HTTP answer (${text.length} bytes)`))
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n")
      const out: Record<string, string> = {}
      for (const l of lines) {
        const i = l.indexOf(":")
        out[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim()
      }
      let body = text.slice(split + 4)
      if (out["transfer-encoding"] === "chunked") {
        let decoded = ""
        let rest = body
        for (;;) {
          const nl = rest.indexOf("\r\n")
          const size = parseInt(rest.slice(0, nl), 16)
          if (!size) break
          decoded += rest.slice(nl + 2, nl + 2 + size)
          rest = rest.slice(nl + 2 + size + 2)
        }
        body = decoded
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers: out, body })
    })
  })
