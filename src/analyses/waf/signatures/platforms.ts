/**
 * Hosting platforms and storage origins that put no WAF in front of a site by themselves: they are
 * listed as delivery layers (role hosting) so a report says who serves the site, and never count
 * as a WAF unless seen refusing or challenging (dsl.ts, "Roles").
 */
import { h, hosting, p, type ProviderEntry, server } from "./dsl"

export const PLATFORMS: ReadonlyArray<ProviderEntry> = [
  hosting(p("GitHub Pages", "GitHub (Microsoft)", "https://docs.github.com/en/pages/getting-started-with-github-pages/about-github-pages", [
    server(/^GitHub\.com$/i, 0.85),
    h("x-github-request-id", /^[0-9A-F]+:[0-9A-F]+:/i, 0.7)
  ])),
  hosting(p("Amazon S3", "Amazon Web Services", "https://docs.aws.amazon.com/AmazonS3/latest/API/RESTCommonResponseHeaders.html", [
    server(/^AmazonS3$/i, 0.85),
    h("x-amz-id-2", /./, 0.5),
    h("x-amz-request-id", /./, 0.3)
  ])),
  hosting(p("Google Cloud Run / App Engine", "Google Cloud", "https://cloud.google.com/appengine/docs/standard/reference/request-response-headers", [
    server(/^Google Frontend$/i, 0.8),
    h("x-cloud-trace-context", /./, 0.4)
  ])),
  hosting(p("Shopify", "Shopify", "https://help.shopify.com/en/manual/online-store", [
    h("powered-by", /^Shopify/i, 0.85),
    h("x-shopid", /^\d+$/, 0.8),
    h("x-shardid", /^\d+$/, 0.5)
  ])),
  hosting(p("Wix", "Wix.com", "https://support.wix.com/en/article/about-wix-hosting", [
    h("x-wix-request-id", /./, 0.85),
    server(/^Pepyaka/i, 0.8)
  ]))
]
