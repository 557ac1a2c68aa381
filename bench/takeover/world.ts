/**
 * The world of bench/takeover/run.ts, in a process of its own so that the measured process runs
 * only the service: NSD and Unbound (the takeover lab), the provider web servers, delay proxies in
 * front of the resolver and of each name server, a crt.sh stand-in. Prints one JSON line with what
 * the service needs, then lives until its stdin closes.
 */
import { startCrtSh } from "../../test/ct/crtsh"
import { startTakeoverLab, type WebHandler } from "../../test/analyses/takeover/takeoverLab"
import { startDelayProxy } from "../dns/delayProxy"

const DELAY = Number(process.env.DELAY_MS ?? 50)
const n = 77
const a = (h: number) => `127.56.${n}.${h}`
const WEB = { github: 70, s3: 71, heroku: 72, live: 75 }

const owners = [...Array.from({ length: 200 }, (_, i) => `n${i}`), ...Array.from({ length: 100 }, (_, i) => `c${i}`)]
const claimed = new Set<string>()
const records = owners.flatMap((o, i) => {
  switch (i % 10) {
    case 0: return [`${o} CNAME ${o}-free.github.io.`]
    case 1: claimed.add(`${o}.big.com`); return [`${o} CNAME ${o}-site.github.io.`]
    case 2: return [`${o} CNAME ${o}-free.s3.amazonaws.com.`]
    case 3: return [`${o} CNAME ${o}-gone.azurewebsites.net.`]
    case 4: return [`${o} CNAME ${o}.dead-target.com.`]
    case 5: return [`${o} A ${a(WEB.live)}`]
    case 6: return [`${o} CNAME ${o}-free.herokuapp.com.`]
    case 7: return [`${o} A ${a(WEB.live)}`, `${o} MX 10 mail.big.com.`, `${o} TXT "v=spf1 mx -all"`]
    case 8: claimed.add(`${o}.big.com`); return [`${o} CNAME ${o}-edge`, `${o}-edge CNAME ${o}-files.s3.amazonaws.com.`]
    default: return i % 50 === 9 ? [`${o} NS ns1.dnshost.net.`] : [`${o} A ${a(WEB.live)}`]
  }
})
const zones = [
  { name: "com", records: [] },
  { name: "net", records: [] },
  { name: "io", records: [] },
  { name: "github.io", records: [`* A ${a(WEB.github)}`] },
  { name: "amazonaws.com", records: [`*.s3 A ${a(WEB.s3)}`] },
  { name: "herokuapp.com", records: [`* A ${a(WEB.heroku)}`] },
  { name: "azurewebsites.net", records: [] },
  { name: "dnshost.net", records: [`ns1 A ${a(5)}`] },
  {
    name: "big.com",
    axfr: true,
    records: [`@ A ${a(WEB.live)}`, `mail A ${a(WEB.live)}`, "@ MX 10 mx.gone-mail.com.", `@ TXT "v=spf1 include:_spf.gone-spf.net -all"`, ...records]
  }
]
const page = (status: number, body: string) => new Response(`<!doctype html><html><body>${body}</body></html>`, { status, headers: { "content-type": "text/html" } })
const web = new Map<number, WebHandler>([
  [WEB.github, (host) => (claimed.has(host) ? page(200, "site") : page(404, "<p><strong>There isn't a GitHub Pages site here.</strong></p>"))],
  [WEB.s3, (host) => (claimed.has(host) ? page(200, "bucket") : new Response("<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>", { status: 404 }))],
  [WEB.heroku, () => page(404, "<p>No such app</p>")],
  [WEB.live, () => page(200, "live")]
])

const lab = await startTakeoverLab({ n, zones, web })
// Every DNS answer the service receives is delayed: the resolver's, and each name server's (on another port).
const authPort = lab.port + 1
const proxies = await Promise.all([
  startDelayProxy({ host: a(53), port: authPort }, { host: a(53), port: lab.port }, DELAY),
  ...[1, 5, 6].map((h) => startDelayProxy({ host: a(h), port: authPort }, { host: a(h), port: lab.port }, DELAY))
])
const crt = startCrtSh()
const ctNames = [...Array.from({ length: 200 }, (_, i) => `c${i}.big.com`)]
crt.set("big.com", {
  kind: "rows",
  rows: Array.from({ length: 4 }, (_, k) => ({
    id: 500 + k, issuer_ca_id: 1, issuer_name: "C=US, O=Lab CA", common_name: ctNames[k * 50], name_value: ctNames.slice(k * 50, k * 50 + 50).join("\n"),
    entry_timestamp: "2026-01-01T00:00:00", not_before: "2026-01-01T00:00:00", not_after: "2027-01-01T00:00:00", serial_number: `0${k}`
  }))
})
console.log(JSON.stringify({ resolver: `${a(53)}:${authPort}`, authPort, ctUrl: crt.url }))
for await (const _ of Bun.stdin.stream()) { /* until the parent closes stdin */ }
await crt.stop()
for (const p of proxies) await p.close()
await lab.stop()
process.exit(0)
