/**
 * The delay proxy (delayProxy.ts) in a process of its own, so that a benchmark measures its
 * own process's CPU time without the proxy's:
 *   bun bench/dns/delayProxyProcess.ts LISTEN_IP:PORT TARGET_IP:PORT DELAY_MS
 * Prints "ready" once it listens; stops on SIGTERM.
 */
import { startDelayProxy } from "./delayProxy"

const hostPort = (s: string) => {
  const i = s.lastIndexOf(":")
  return { host: s.slice(0, i), port: Number(s.slice(i + 1)) }
}
const [listen, target, delay] = process.argv.slice(2)
const proxy = await startDelayProxy(hostPort(listen), hostPort(target), Number(delay))
process.on("SIGTERM", () => void proxy.close().then(() => process.exit(0)))
console.log("ready")
