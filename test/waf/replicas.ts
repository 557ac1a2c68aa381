/**
 * What WAF providers really send, replayed by local Bun servers: headers, cookies, block and
 * challenge pages, status codes (replicas/*.ts, one file per category of the signature table),
 * and the plain origins that must stay clean. Each replica names the provider the detector must
 * report, the enforcement level and the topology.
 */
import { CLOUD_REPLICAS } from "./replicas/cloud"
import { CORE } from "./replicas/core"
import { ENTERPRISE_REPLICAS } from "./replicas/enterprise"
import { HOSTING_REPLICAS } from "./replicas/hosting"
import type { Replica } from "./replicas/kit"
import { NEGATIVES } from "./replicas/negatives"
import { REGIONAL_REPLICAS } from "./replicas/regional"

export type { Replica } from "./replicas/kit"

export const REPLICAS: ReadonlyArray<Replica> = [
  ...CORE,
  ...CLOUD_REPLICAS,
  ...REGIONAL_REPLICAS,
  ...ENTERPRISE_REPLICAS,
  ...HOSTING_REPLICAS,
  ...NEGATIVES
]

/** Layered setups: providers in front of providers. */
export const LAYERED = [
  {
    id: "cloudflare-over-cloudfront",
    chain: ["Cloudflare", "Amazon CloudFront"],
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6794-FRA"], ["cf-cache-status", "MISS"], ["x-amz-cf-pop", "FRA56-P1"], ["x-amz-cf-id", "Zz9-abc=="], ["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront)"], ["x-cache", "Miss from cloudfront"]] as ReadonlyArray<readonly [string, string]>
  },
  {
    // Via lists hops origin side first: CloudFront sits behind Fastly here.
    id: "fastly-over-cloudfront",
    chain: ["Fastly", "Amazon CloudFront"],
    headers: [["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront), 1.1 varnish"], ["x-amz-cf-id", "Yy8-def=="], ["x-amz-cf-pop", "IAD89-C1"], ["x-served-by", "cache-iad-kiad7000123-IAD"], ["x-fastly-request-id", "abcdef0123456789abcdef0123456789abcdef01"], ["x-timer", "S1700000000.000001,VS0,VE40"]] as ReadonlyArray<readonly [string, string]>
  },
  {
    id: "cloudfront-over-fastly",
    chain: ["Amazon CloudFront", "Fastly"],
    headers: [["via", "1.1 varnish, 1.1 9f8e7d6c5b4a.cloudfront.net (CloudFront)"], ["x-amz-cf-id", "Xx7-ghi=="], ["x-amz-cf-pop", "LHR61-P2"], ["x-served-by", "cache-lhr7300-LHR"], ["x-fastly-request-id", "0123456789abcdef0123456789abcdef01234567"]] as ReadonlyArray<readonly [string, string]>
  }
] as const
