/**
 * Raw TCP for TLS probes: connect to an address the guard vetted, send the bytes of each step,
 * read until the caller's predicate is satisfied, the peer closes, the step's time runs out or
 * the byte cap is reached. It knows nothing of TLS (the analysis parses); every wait is an Effect
 * timeout (TestClock drives it) and the socket is destroyed when the conversation ends, however
 * it ends.
 */
import { Context, Data, Duration, Effect, Layer } from "effect"
import * as net from "node:net"

export interface WireStep {
  readonly send: Uint8Array
  /** Reading stops once this holds for everything received in this step. */
  readonly until: (received: Uint8Array) => boolean
  readonly timeoutMs: number
}

export interface StepResult {
  readonly bytes: Uint8Array
  readonly end: "enough" | "closed" | "reset" | "timeout" | "byte_limit"
}

export class TlsConnectFailed extends Data.TaggedError("TlsConnectFailed")<{
  readonly reason: "refused" | "timeout" | "unreachable"
  readonly message: string
}> {}

export interface ConverseOptions {
  readonly connectTimeoutMs: number
  /** Bytes read per step at most. */
  readonly maxBytes: number
}

interface Conn {
  readonly socket: net.Socket
  chunks: Array<Buffer>
  size: number
  closed: "closed" | "reset" | null
  wake: (() => void) | null
}

const connect = (address: string, port: number, timeoutMs: number) =>
  Effect.async<Conn, TlsConnectFailed>((resume) => {
    const socket = net.connect({ host: address, port, noDelay: true })
    const conn: Conn = { socket, chunks: [], size: 0, closed: null, wake: null }
    let connected = false
    socket.on("data", (b: Buffer) => {
      conn.chunks.push(b)
      conn.size += b.length
      conn.wake?.()
    })
    socket.on("error", (e: NodeJS.ErrnoException) => {
      if (!connected) {
        const reason = e.code === "ECONNREFUSED" ? "refused" : "unreachable"
        return resume(Effect.fail(new TlsConnectFailed({ reason, message: `connection to ${address}:${port} failed: ${e.code ?? e.message}` })))
      }
      conn.closed = "reset"
      conn.wake?.()
    })
    socket.on("close", () => {
      conn.closed ??= "closed"
      conn.wake?.()
    })
    socket.once("connect", () => {
      connected = true
      resume(Effect.succeed(conn))
    })
    return Effect.sync(() => socket.destroy())
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(timeoutMs),
      onTimeout: () => new TlsConnectFailed({ reason: "timeout", message: `no TCP connection to ${address}:${port} within ${timeoutMs} ms` })
    })
  )

const take = (conn: Conn): Buffer => {
  const b = Buffer.concat(conn.chunks)
  conn.chunks = b.length > 0 ? [b] : []
  return b
}

const readStep = (conn: Conn, step: WireStep, maxBytes: number) =>
  Effect.async<StepResult>((resume) => {
    const check = () => {
      const bytes = take(conn)
      if (step.until(bytes)) return done({ bytes, end: "enough" })
      if (bytes.length >= maxBytes) return done({ bytes: bytes.subarray(0, maxBytes), end: "byte_limit" })
      if (conn.closed) return done({ bytes, end: conn.closed })
    }
    const done = (r: StepResult) => {
      conn.wake = null
      resume(Effect.succeed(r))
    }
    conn.wake = check
    if (step.send.length > 0 && !conn.closed) conn.socket.write(step.send)
    check()
    return Effect.sync(() => { conn.wake = null })
  }).pipe(
    Effect.timeoutTo({
      duration: Duration.millis(step.timeoutMs),
      onTimeout: () => ({ bytes: new Uint8Array(take(conn)), end: "timeout" as const }),
      onSuccess: (r) => r
    })
  )

export class TlsWire extends Context.Tag("domain-intel/TlsWire")<TlsWire, {
  /** One TCP connection: the steps in order; each step's bytes are what arrived after its send. */
  readonly converse: (
    address: string,
    port: number,
    steps: ReadonlyArray<WireStep>,
    options: ConverseOptions
  ) => Effect.Effect<ReadonlyArray<StepResult>, TlsConnectFailed>
}>() {
  static readonly Live = Layer.succeed(this, {
    converse: (address, port, steps, options) =>
      Effect.acquireUseRelease(
        connect(address, port, options.connectTimeoutMs),
        (conn) =>
          Effect.gen(function*() {
            const results: Array<StepResult> = []
            for (const step of steps) {
              // Each step reads only what follows its own send.
              conn.chunks = []
              conn.size = 0
              const r = yield* readStep(conn, step, options.maxBytes)
              results.push(r)
              if (r.end !== "enough") break
            }
            return results
          }),
        (conn) => Effect.sync(() => conn.socket.destroy())
      )
  })
}
