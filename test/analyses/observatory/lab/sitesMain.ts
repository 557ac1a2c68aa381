/**
 * The lab's sites and DNS server in a process of their own (inside the test's network namespace),
 * so the service's scans and the Observatory's each run in their own process against the same
 * servers: neither client shares its thread with the sites. LAB_TLS names a JSON file with the
 * good and the bad certificate; prints `ready <dns port>` once everything listens, and stops when
 * its standard input closes.
 */
import { readFileSync } from "node:fs"
import { startDnsServer } from "../../../support/dnsServer"
import { startSites } from "./servers"
import { OTHER_HOSTS, SITES } from "./sites"

const tls = JSON.parse(readFileSync(process.env.LAB_TLS!, "utf8")) as Parameters<typeof startSites>[1]
const sites = startSites(SITES, tls)
const records: Record<string, { A: Array<string> }> = {}
for (const s of SITES) records[s.host] = { A: [`127.0.0.${s.ip ?? 1}`] }
for (const h of OTHER_HOSTS) records[h] = { A: ["127.0.0.1"] }
const dns = await startDnsServer(records)
console.log(`ready ${dns.port}`)
for await (const _ of Bun.stdin.stream()) {
  // Nothing is read: the loop ends when the parent closes the pipe.
}
sites.stop()
await dns.close()
process.exit(0)
