/**
 * Runs inside a network namespace of its own (`unshare --net`, started by world.ts): only
 * loopback exists, with the world's IPv6 addresses added to it. Starts the DNS tree, the web
 * and mail servers, a local crt.sh, and the services under test (the same layers `serve` runs),
 * each reached from outside the namespace through a Unix socket in AUDIT_WORLD_DIR (a file
 * system path crosses network namespaces). Prints one JSON line when ready; stops on stdin's end.
 *
 * The services: `main` (the world as it is), `faulty` (AUDIT_DEADLINE_MS 4000 and a third IP
 * list whose server never answers: inputs that cannot be had), `broken` (its resolver does not
 * answer: the own-resolver failure), `guarded` (ALLOW_PRIVATE_TARGETS off: the world's
 * addresses are all non-public, so the guard refuses them).
 */
import * as net from "node:net"
import { join } from "node:path"
import { parseResolverList } from "../../../../src/platform/Config"
import { startService, type TestService } from "../../../support/service"
import { startWorld } from "./start"
import { ADDR } from "./zones"

const dir = process.env.AUDIT_WORLD_DIR
if (!dir) throw new Error("AUDIT_WORLD_DIR is not set")

const world = await startWorld(dir)
const base = world.config
const services: Record<string, TestService> = {
  main: await startService(base),
  faulty: await startService({ ...base, auditDeadlineMs: 4000, dnsblIpZones: ["ip.dnsbl.lab", "slow.dnsbl.lab"] }),
  broken: await startService({ ...base, dnsResolvers: parseResolverList(`${ADDR.deadDns}:53`), dnsTimeoutMs: 500 }),
  guarded: await startService({ ...base, allowPrivateTargets: false })
}

/** Each service's port on a Unix socket, for the bridge outside. */
const sockets = Object.fromEntries(Object.entries(services).map(([name, s]) => {
  const path = join(dir, `${name}.sock`)
  net.createServer((client) => {
    const up = net.connect(s.port, "127.0.0.1")
    client.pipe(up).pipe(client)
    client.on("error", () => up.destroy())
    up.on("error", () => client.destroy())
  }).listen(path)
  return [name, path]
}))

const keys = {
  developer: (await services.main.newKey("developer")).key,
  pro: (await services.main.newKey("pro")).key,
  free: (await services.main.newKey("free")).key,
  faulty: (await services.faulty.newKey("developer")).key,
  broken: (await services.broken.newKey("developer")).key,
  brokenPro: (await services.broken.newKey("pro")).key,
  guarded: (await services.guarded.newKey("developer")).key
}

console.log(JSON.stringify({ ready: true, sockets, keys }))

const stop = async () => {
  for (const s of Object.values(services)) await s.stop().catch(() => {})
  await world.stop()
  process.exit(0)
}
process.stdin.on("end", () => void stop())
process.stdin.on("close", () => void stop())
process.stdin.resume()
