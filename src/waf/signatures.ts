/**
 * The WAF signature table, assembled from data files by category (src/waf/signatures/*.ts).
 * Evidence kinds, weights and the helpers that write entries are described in signatures/dsl.ts.
 */
import { APPLIANCE } from "./signatures/appliance"
import { BOTS } from "./signatures/bots"
import { CLOUD } from "./signatures/cloud"
import type { ProviderEntry } from "./signatures/dsl"
import { HOSTING } from "./signatures/hosting"
import { OPENSOURCE } from "./signatures/opensource"
import { REGIONAL } from "./signatures/regional"

export type { BlockCategory, EvidenceKind, ProviderEntry, Signature } from "./signatures/dsl"

export const PROVIDERS: ReadonlyArray<ProviderEntry> = [...CLOUD, ...REGIONAL, ...APPLIANCE, ...BOTS, ...HOSTING, ...OPENSOURCE]
