/**
 * What WAF providers really send, replayed by local Bun servers: headers, cookies, block and
 * challenge pages, status codes (replicas/*.ts, one file per category of the signature table),
 * and the plain origins that must stay clean. Each replica names the provider the detector must
 * report, the enforcement level and the topology.
 */
import { CLOUD_REPLICAS } from "./replicas/cloud"
import { CLOUDFLARE_ERROR_REPLICAS } from "./replicas/cloudflare-errors"
import { CORE } from "./replicas/core"
import { ENTERPRISE_REPLICAS } from "./replicas/enterprise"
import { HOSTING_REPLICAS } from "./replicas/hosting"
import type { Replica } from "./replicas/kit"
import { NEGATIVES } from "./replicas/negatives"
import { REGIONAL_REPLICAS } from "./replicas/regional"

export type { Replica } from "./replicas/kit"

export const REPLICAS: ReadonlyArray<Replica> = [
  ...CORE,
  ...CLOUDFLARE_ERROR_REPLICAS,
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
    enforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6794-FRA"], ["cf-cache-status", "MISS"], ["x-amz-cf-pop", "FRA56-P1"], ["x-amz-cf-id", "Zz9-abc=="], ["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront)"], ["x-cache", "Miss from cloudfront"]] as ReadonlyArray<readonly [string, string]>
  },
  {
    // Via lists hops origin side first: CloudFront sits behind Fastly here.
    id: "fastly-over-cloudfront",
    chain: ["Fastly", "Amazon CloudFront"],
    enforcement: "low",
    headers: [["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront), 1.1 varnish"], ["x-amz-cf-id", "Yy8-def=="], ["x-amz-cf-pop", "IAD89-C1"], ["x-served-by", "cache-iad-kiad7000123-IAD"], ["x-fastly-request-id", "abcdef0123456789abcdef0123456789abcdef01"], ["x-timer", "S1700000000.000001,VS0,VE40"]] as ReadonlyArray<readonly [string, string]>
  },
  {
    id: "cloudfront-over-fastly",
    chain: ["Amazon CloudFront", "Fastly"],
    enforcement: "low",
    headers: [["via", "1.1 varnish, 1.1 9f8e7d6c5b4a.cloudfront.net (CloudFront)"], ["x-amz-cf-id", "Xx7-ghi=="], ["x-amz-cf-pop", "LHR61-P2"], ["x-served-by", "cache-lhr7300-LHR"], ["x-fastly-request-id", "0123456789abcdef0123456789abcdef01234567"]] as ReadonlyArray<readonly [string, string]>
  },
  {
    // No Via hop names either provider: the chain follows confidence.
    id: "imperva-over-aws-elb",
    chain: ["Imperva Incapsula", "AWS Elastic Load Balancing"],
    enforcement: "low",
    headers: [["x-cdn", "Imperva"], ["x-iinfo", "10-12345678-0 0NNN RT(1700000000000 2) q(0 0 0 -1) r(0 0) U6"], ["set-cookie", "visid_incap_2345678=AbCdEf==; path=/; Domain=.example.com"], ["set-cookie", "incap_ses_1234_2345678=GhIjKl==; path=/; Domain=.example.com"], ["set-cookie", "AWSALB=Zz9/abc==; Expires=Mon, 30 Nov 2026 04:00:00 GMT; Path=/"], ["server", "awselb/2.0"]] as ReadonlyArray<readonly [string, string]>
  },
  {
    // Sucuri behind Cloudflare (a setup Sucuri documents): both pass their own headers through.
    id: "cloudflare-over-sucuri",
    chain: ["Cloudflare", "Sucuri"],
    enforcement: "medium",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6798-FRA"], ["cf-cache-status", "DYNAMIC"], ["x-sucuri-id", "18012"], ["x-sucuri-cache", "MISS"], ["set-cookie", "__cf_bm=Ww.1700000000-1.0.1.1-r; path=/; HttpOnly; Secure"]] as ReadonlyArray<readonly [string, string]>
  }
] as const
