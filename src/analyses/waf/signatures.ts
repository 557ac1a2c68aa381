/**
 * The WAF signature table, assembled from data files by category (src/analyses/waf/signatures/*.ts).
 * Evidence kinds, weights and the helpers that write entries are described in signatures/dsl.ts.
 */
import { APPLIANCE } from "./signatures/appliance"
import { BOTS } from "./signatures/bots"
import { CDN } from "./signatures/cdn"
import { CHINA } from "./signatures/china"
import { CLOUD } from "./signatures/cloud"
import { CMS } from "./signatures/cms"
import type { ProviderEntry } from "./signatures/dsl"
import { ENTERPRISE } from "./signatures/enterprise"
import { HOSTING } from "./signatures/hosting"
import { OPENSOURCE } from "./signatures/opensource"
import { PLATFORMS } from "./signatures/platforms"
import { REGIONAL } from "./signatures/regional"
import { WORLD } from "./signatures/world"

export type { BlockCategory, EvidenceKind, ProviderEntry, Role, Signature } from "./signatures/dsl"

export const PROVIDERS: ReadonlyArray<ProviderEntry> = [
  ...CLOUD, ...CDN, ...REGIONAL, ...CHINA, ...WORLD, ...APPLIANCE, ...ENTERPRISE, ...BOTS, ...HOSTING, ...CMS, ...OPENSOURCE, ...PLATFORMS
]
