/**
 * http-check GET reads no body on a redirect it follows: a chain whose 3xx responses carry an
 * endless trickling body and a huge fast body completes and reports the final page, and the
 * origin manages to send only what the socket buffers hold before the hang-up.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import * as net from "node:net"
import { startService, type TestService } from "../support/service"

let svc: TestService
let key: string
let origin: net.Server
let port: number
const sent: Record<string, number> = {}
const sockets = new Set<net.Socket>()

beforeAll(async () => {
  origin = net.createServer((s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
    s.on("error", () => {})
    s.once("data", (d: Buffer) => {
      const path = d.toString("latin1").split(" ")[1]
      sent[path] = 0
      if (path === "/trickle") {
        // 302 with a chunked body that never ends: one byte every 50 ms.
        s.write("HTTP/1.1 302 Found\r\nLocation: /flood\r\nTransfer-Encoding: chunked\r\n\r\n")
        const t = setInterval(() => {
          if (s.destroyed) return clearInterval(t)
          s.write("1\r\nx\r\n")
          sent[path] += 1
        }, 50)
      } else if (path === "/flood") {
        // 301 announcing 50 MiB and sending it as fast as the client reads.
        const total = 50 * 1024 * 1024
        s.write(`HTTP/1.1 301 Moved\r\nLocation: /final\r\nContent-Length: ${total}\r\n\r\n`)
        const chunk = Buffer.alloc(64 * 1024, 0x61)
        const pump = () => {
          while (!s.destroyed && sent[path] < total) {
            sent[path] += chunk.length
            if (!s.write(chunk)) return void s.once("drain", pump)
          }
        }
        pump()
      } else {
        s.end("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nfinal")
      }
    })
  })
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", () => r()))
  port = (origin.address() as net.AddressInfo).port
  svc = await startService()
  key = (await svc.newKey("free")).key
})
afterAll(async () => {
  for (const s of sockets) s.destroy()
  origin?.close()
  await svc?.stop()
})

describe("http-check GET through redirects with bodies", () => {
  test("redirect bodies are not read: endless and huge 3xx bodies do not hold the check", async () => {
    const res = await svc.call(`/v1/network/http-check?${new URLSearchParams({ url: `http://127.0.0.1:${port}/trickle`, method: "GET", timeout: "8000" })}`, { key })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.error).toBeNull()
    expect(body.status.code).toBe(200)
    expect(body.final_url).toBe(`http://127.0.0.1:${port}/final`)
    expect(body.redirects.map((r: any) => r.status)).toEqual([302, 301])
    // Far below the 10 MiB a body read would take: only what the socket buffers absorbed.
    expect(sent["/flood"]).toBeLessThan(8 * 1024 * 1024)
  }, 20_000)
})
