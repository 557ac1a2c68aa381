/**
 * A bare TCP connection test: does `address:port` accept a connection within the time limit?
 * The socket is closed as soon as it opens (nothing is sent). The caller judges the address
 * with the target guard first (`mayContact`); the wait is an Effect timeout, so TestClock drives it.
 */
import { Duration, Effect } from "effect"
import * as net from "node:net"

export const tcpOpens = (address: string, port: number, timeoutMs: number): Effect.Effect<boolean> =>
  Effect.async<boolean>((resume) => {
    const socket = net.connect({ host: address, port })
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => {
      socket.destroy()
      resume(Effect.succeed(false))
    })
    return Effect.sync(() => socket.destroy())
  }).pipe(
    Effect.timeoutTo({ duration: Duration.millis(timeoutMs), onTimeout: () => false, onSuccess: (open) => open })
  )
