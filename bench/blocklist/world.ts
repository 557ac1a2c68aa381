/**
 * The world of bench/blocklist/run.ts, in a process of its own so that the measured process runs
 * only the service: the blocklist lab (NSD with lab copies of the default DNSBLs and the lab
 * domains, Unbound: test/analyses/blocklist/world.ts) and a delay proxy in front of Unbound, so
 * every DNS answer the service receives comes DELAY_MS late. Prints one JSON line with the
 * resolver's address, then lives until its stdin closes.
 */
import { blocklistZones } from "../../test/analyses/blocklist/world"
import { startTakeoverLab } from "../../test/analyses/takeover/takeoverLab"
import { startDelayProxy } from "../dns/delayProxy"

const DELAY = Number(process.env.DELAY_MS ?? 50)
const n = 78
const a = (h: number) => `127.56.${n}.${h}`
const lab = await startTakeoverLab({ n, zones: blocklistZones(a), web: new Map() })
const port = lab.port + 1
const proxy = await startDelayProxy({ host: a(53), port }, { host: a(53), port: lab.port }, DELAY)
console.log(JSON.stringify({ resolver: `${a(53)}:${port}`, direct: lab.resolver }))
for await (const _ of Bun.stdin.stream()) { /* until the parent closes stdin */ }
await proxy.close()
await lab.stop()
process.exit(0)
