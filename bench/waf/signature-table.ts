/**
 * Prints the signature table of docs/waf.md ("Signature table") from the data files, one section
 * per file: name, vendor, role, evidence kinds, block/challenge headers, source_url.
 *
 *   bun bench/waf/signature-table.ts > /tmp/table.md
 */
import { APPLIANCE } from "../../src/analyses/waf/signatures/appliance"
import { BOTS } from "../../src/analyses/waf/signatures/bots"
import { CDN } from "../../src/analyses/waf/signatures/cdn"
import { CHINA } from "../../src/analyses/waf/signatures/china"
import { CLOUD } from "../../src/analyses/waf/signatures/cloud"
import { CMS } from "../../src/analyses/waf/signatures/cms"
import type { ProviderEntry } from "../../src/analyses/waf/signatures/dsl"
import { ENTERPRISE } from "../../src/analyses/waf/signatures/enterprise"
import { HOSTING } from "../../src/analyses/waf/signatures/hosting"
import { OPENSOURCE } from "../../src/analyses/waf/signatures/opensource"
import { PLATFORMS } from "../../src/analyses/waf/signatures/platforms"
import { REGIONAL } from "../../src/analyses/waf/signatures/regional"
import { WORLD } from "../../src/analyses/waf/signatures/world"

const files: ReadonlyArray<readonly [string, ReadonlyArray<ProviderEntry>]> = [
  ["cloud.ts", CLOUD], ["cdn.ts", CDN], ["regional.ts", REGIONAL], ["china.ts", CHINA], ["world.ts", WORLD], ["appliance.ts", APPLIANCE],
  ["enterprise.ts", ENTERPRISE], ["bots.ts", BOTS], ["hosting.ts", HOSTING], ["cms.ts", CMS], ["opensource.ts", OPENSOURCE], ["platforms.ts", PLATFORMS]
]
for (const [file, entries] of files) {
  console.log(`#### ${file} (${entries.length})\n`)
  console.log("| name | vendor | role | evidence kinds | block/challenge header | source_url |")
  console.log("|---|---|---|---|---|---|")
  for (const e of entries) {
    const kinds = [...new Set(e.signatures.map((s) => (s.kind === "status" && s.reason ? "reason" : s.kind)))].join(", ")
    const headers = e.signatures.filter((s) => s.kind === "block-header").map((s) => `\`${s.header}\``).join(", ")
    console.log(`| ${e.name} | ${e.vendor} | ${e.role ?? "waf"} | ${kinds} | ${headers} | ${e.source_url} |`)
  }
  console.log("")
}
