/**
 * The loopback DNS server of bench/dns/own-resolver.ts in a process of its own (in the bench's
 * process its socket buffer overflowed while the service sent a burst): argv[2] is the records as
 * JSON; prints its port, then answers each stdin line with the questions received so far (JSON).
 */
import { startDnsServer } from "../../test/support/dnsServer"

// JSON turns a Buffer (the root DNSKEY) into {type: "Buffer", data}; turn it back.
const records = JSON.parse(process.argv[2] ?? "{}", (_k, v) => (v?.type === "Buffer" && Array.isArray(v.data) ? Buffer.from(v.data) : v))
const server = await startDnsServer(records)
console.log(server.port)
for await (const _ of console) console.log(JSON.stringify(server.queries))
