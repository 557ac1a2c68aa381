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
import { LAYER_REPLICAS } from "./replicas/layers"
import { NEGATIVES } from "./replicas/negatives"
import { REGIONAL_REPLICAS } from "./replicas/regional"
import { VARIANT_REPLICAS } from "./replicas/variants"

export type { Replica } from "./replicas/kit"

export const REPLICAS: ReadonlyArray<Replica> = [
  ...CORE,
  ...CLOUDFLARE_ERROR_REPLICAS,
  ...CLOUD_REPLICAS,
  ...REGIONAL_REPLICAS,
  ...ENTERPRISE_REPLICAS,
  ...HOSTING_REPLICAS,
  ...VARIANT_REPLICAS,
  ...LAYER_REPLICAS,
  ...NEGATIVES
]

/**
 * Layered setups: providers in front of providers. `chain` is the WAF layers from the client edge
 * inwards (the topology); `layers` the CDNs and load balancers seen without a block, listed after
 * the WAFs and never part of the topology.
 */
export const LAYERED: ReadonlyArray<{
  readonly id: string
  readonly chain: ReadonlyArray<string>
  readonly layers: ReadonlyArray<string>
  readonly enforcement: "low" | "medium" | "high"
  readonly headers: ReadonlyArray<readonly [string, string]>
}> = [
  {
    id: "cloudflare-over-cloudfront",
    chain: ["Cloudflare"],
    layers: ["Amazon CloudFront"],
    enforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6794-FRA"], ["cf-cache-status", "MISS"], ["x-amz-cf-pop", "FRA56-P1"], ["x-amz-cf-id", "Zz9-abc=="], ["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront)"], ["x-cache", "Miss from cloudfront"]]
  },
  {
    // Via lists hops origin side first: CloudFront sits behind Fastly here.
    id: "fastly-over-cloudfront",
    chain: [],
    layers: ["Fastly", "Amazon CloudFront"],
    enforcement: "low",
    headers: [["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront), 1.1 varnish"], ["x-amz-cf-id", "Yy8-def=="], ["x-amz-cf-pop", "IAD89-C1"], ["x-served-by", "cache-iad-kiad7000123-IAD"], ["x-fastly-request-id", "abcdef0123456789abcdef0123456789abcdef01"], ["x-timer", "S1700000000.000001,VS0,VE40"]]
  },
  {
    id: "cloudfront-over-fastly",
    chain: [],
    layers: ["Amazon CloudFront", "Fastly"],
    enforcement: "low",
    headers: [["via", "1.1 varnish, 1.1 9f8e7d6c5b4a.cloudfront.net (CloudFront)"], ["x-amz-cf-id", "Xx7-ghi=="], ["x-amz-cf-pop", "LHR61-P2"], ["x-served-by", "cache-lhr7300-LHR"], ["x-fastly-request-id", "0123456789abcdef0123456789abcdef01234567"]]
  },
  {
    // No Via hop names either provider: the chain follows confidence.
    id: "imperva-over-aws-elb",
    chain: ["Imperva Incapsula"],
    layers: ["AWS Elastic Load Balancing"],
    enforcement: "low",
    headers: [["x-cdn", "Imperva"], ["x-iinfo", "10-12345678-0 0NNN RT(1700000000000 2) q(0 0 0 -1) r(0 0) U6"], ["set-cookie", "visid_incap_2345678=AbCdEf==; path=/; Domain=.example.com"], ["set-cookie", "incap_ses_1234_2345678=GhIjKl==; path=/; Domain=.example.com"], ["set-cookie", "AWSALB=Zz9/abc==; Expires=Mon, 30 Nov 2026 04:00:00 GMT; Path=/"], ["server", "awselb/2.0"]]
  },
  {
    // Sucuri behind Cloudflare (a setup Sucuri documents): both pass their own headers through.
    id: "cloudflare-over-sucuri",
    chain: ["Cloudflare", "Sucuri"],
    layers: [],
    enforcement: "medium",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6798-FRA"], ["cf-cache-status", "DYNAMIC"], ["x-sucuri-id", "18012"], ["x-sucuri-cache", "MISS"], ["set-cookie", "__cf_bm=Ww.1700000000-1.0.1.1-r; path=/; HttpOnly; Secure"]]
  },
  {
    // Via lists the hop nearest the origin first: NetScaler sits behind Google's load balancer.
    id: "cloud-armor-over-netscaler",
    chain: ["Google Cloud Armor", "Citrix NetScaler AppFirewall"],
    layers: [],
    enforcement: "medium",
    headers: [["via", "NS-CACHE-10.0: 12, 1.1 google"], ["set-cookie", "recaptcha-ca-t=AbCdEfGh:1700000000; Path=/; Secure; HttpOnly"], ["set-cookie", "citrix_ns_id=AbCdEf0123456789; Domain=.example.com; Path=/; HttpOnly"]]
  },
  {
    // Akamai's bot manager challenges here (its challenge cookies): the CDN acts as a WAF in front of Imperva.
    id: "akamai-bot-over-imperva",
    chain: ["Akamai", "Imperva Incapsula"],
    layers: [],
    enforcement: "medium",
    headers: [["server", "AkamaiGHost"], ["akamai-grn", "0.2f1e4817.1700000000.5a3b2c1"], ["x-iinfo", "10-12345678-0 0NNN RT(1700000000000 2) q(0 0 0 -1) r(0 0) U6"], ["set-cookie", "ak_bmsc=3F2A1B~000000000000000000000000000000~YAAQ; Domain=.example.com; Path=/; HttpOnly"], ["set-cookie", "visid_incap_2345678=AbCdEf==; path=/; Domain=.example.com"]]
  }
]
