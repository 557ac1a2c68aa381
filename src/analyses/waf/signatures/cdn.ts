/** CDNs and edge clouds beyond the largest ones (cloud.ts): US, European and other global edges. */
import { body, bodyR, cdn, cookie, edge, h, hosting, p, type ProviderEntry, proxy, server } from "./dsl"

const W = (plugin: string) => `https://github.com/EnableSecurity/wafw00f/blob/master/wafw00f/plugins/${plugin}.py`

export const CDN: ReadonlyArray<ProviderEntry> = [
  cdn(p("Bunny Shield (bunny.net)", "BunnyWay d.o.o.", "https://docs.bunny.net/docs/cdn-response-headers", [
    server(/^BunnyCDN/i, 0.9),
    h("cdn-pullzone", /^\d+$/, 0.8),
    h("cdn-requestid", /^[0-9a-f]{32}$/i, 0.6)
  ])),
  hosting(p("Netlify", "Netlify, Inc.", "https://docs.netlify.com/manage/security/secure-access-to-sites/traffic-rules/", [
    server(/^Netlify$/i, 0.85),
    h("x-nf-request-id", /./, 0.8)
  ])),
  cdn(p("KeyCDN", "proinity LLC", "https://www.keycdn.com/support/cdn-response-headers", [
    server(/keycdn/i, 0.9),
    h("x-edge-location", /./, 0.2)
  ])),
  cdn(p("CacheFly", "CacheFly", W("cachefly"), [
    h("bestcdn", /cachefly/i, 0.9),
    cookie(/^cfly_req/, 0.7)
  ])),
  cdn(p("MaxCDN", "StackPath (MaxCDN)", W("maxcdn"), [
    h("x-cdn", /maxcdn/i, 0.9)
  ])),
  cdn(p("Limelight (Edgio)", "Edgio (Limelight Networks)", W("limelight"), [
    cookie(/^limelight|^l[mg]_sessid$/, 0.8)
  ])),
  cdn(p("CDN77", "DataCamp Limited", "https://client.cdn77.com/support/knowledgebase/cdn-resource/http-headers", [
    server(/^CDN77-Turbo$/i, 0.9),
    h("x-77-nzt", /./, 0.8),
    h("x-77-pop", /./, 0.6)
  ])),
  cdn(p("Azion Edge Firewall", "Azion Technologies", "https://www.azion.com/en/documentation/products/secure/edge-firewall/", [
    h("x-azion-edge-pop", /./, 0.85),
    h("x-azion-request-id", /./, 0.85),
    server(/^azion/i, 0.8)
  ])),
  p("Link11 WAAP", "Link11 GmbH", W("link11"), [
    server(/^rhino-core-shield$/i, 0.9)
  ]),
  cdn(p("AireeCDN", "Airee", W("airee"), [
    server(/^Airee/i, 0.85),
    h("x-cache", /airee\.cloud/i, 0.85),
    bodyR(/airee\.cloud/i, 0.6)
  ])),
  cdn(p("Beluga CDN", "Beluga", W("beluga"), [
    server(/^Beluga/i, 0.85),
    cookie(/^beluga_request_trail$/, 0.8)
  ])),
  p("BinarySec", "BinarySec", W("binarysec"), [
    server(/^BinarySec/i, 0.9),
    h("x-binarysec-via", /./, 0.85),
    h("x-binarysec-nocache", /./, 0.8)
  ]),
  p("BlockDoS", "BlockDoS", W("blockdos"), [
    server(/blockdos\.net/i, 0.9)
  ]),
  p("Cloudfloor WAF", "Cloudfloor DNS", W("cloudfloordns"), [
    server(/^CloudfloorDNS/i, 0.9),
    body(/CloudfloorDNS.{0,6}Web Application Firewall Error|www\.cloudfloordns\.com\/contact/i, 0.85, "block")
  ]),
  p("DOSarrest", "DOSarrest Internet Security", W("dosarrest"), [
    server(/^DOSarrest/i, 0.9),
    h("x-dis-request-id", /./, 0.85)
  ]),
  cdn(p("Instart DX", "Instart Logic (Akamai)", W("instartdx"), [
    h("x-instart-request-id", /./, 0.85),
    h("x-instart-cache", /./, 0.7),
    h("x-instart-wl", /./, 0.7)
  ])),
  p("Zenedge (Oracle)", "Oracle (Zenedge)", W("zenedge"), [
    server(/^ZENEDGE$/i, 0.9),
    h("x-zen-fury", /./, 0.85),
    bodyR(/\/__zenedge\//i, 0.8)
  ]),
  p("Oracle Cloud Infrastructure WAF", "Oracle", "https://docs.oracle.com/en-us/iaas/Content/WAF/Concepts/overview.htm", [
    bodyR(/<title>fw_error_www|src="\/oralogo_small\.gif"/i, 0.85)
  ]),
  cdn(p("PowerCDN", "PowerCDN", W("powercdn"), [
    h("x-cdn", /PowerCDN/i, 0.9),
    h("via", /powercdn\.com/i, 0.85),
    h("x-cache", /powercdn\.com/i, 0.85)
  ], /powercdn/i)),
  hosting(p("TransIP Web Firewall", "TransIP", W("transip"), [
    h("x-transip-backend", /./, 0.85),
    h("x-transip-balancer", /./, 0.85)
  ])),
  hosting(p("Squarespace", "Squarespace", W("squarespace"), [
    server(/^Squarespace$/i, 0.85),
    cookie(/^SS_MID$|^SS_ANALYTICS_ID$|^SS_MATTR$|^SS_CVT$/, 0.6),
    bodyR(/status\.squarespace\.com|BRICK-\d{2}/, 0.7)
  ])),
  hosting(p("Pantheon Advanced Global CDN", "Pantheon Systems", "https://docs.pantheon.io/guides/global-cdn/global-cdn-caching", [
    h("x-pantheon-styx-hostname", /./, 0.85),
    h("x-styx-req-id", /./, 0.8)
  ])),
  hosting(p("Heroku Router", "Salesforce (Heroku)", "https://devcenter.heroku.com/articles/http-routing", [
    h("via", /\bheroku-router\b/i, 0.8),
    server(/^heroku$/i, 0.6)
  ], /heroku-router/i)),
  hosting(p("Fly.io Proxy", "Fly.io", "https://fly.io/docs/networking/request-headers/", [
    server(/^Fly\//, 0.8),
    h("fly-request-id", /./, 0.85)
  ])),
  hosting(p("Render Edge", "Render Services", "https://render.com/docs/ddos-protection", [
    h("rndr-id", /./, 0.85),
    h("x-render-origin-server", /./, 0.8)
  ])),
  p("Akamai Bot Manager", "Akamai Technologies", "https://techdocs.akamai.com/bot-manager/docs/cookies", [
    cookie(/^_abck$/, 0.85, true),
    cookie(/^bm_sz$|^bm_mi$|^bm_sv$/, 0.7, true),
    // Its interstitial challenge: the sec_cpt cookie and the /_sec/cp_challenge/ scripts.
    cookie(/^sec_cpt$/, 0.8, true),
    body(/\/_sec\/cp_challenge\//i, 0.9, "challenge")
  ]),
  p("Imperva SecureSphere", "Imperva (Thales)", W("securesphere"), [
    bodyR(/<(?:title|h2)>Error<\/(?:title|h2)>.{0,600}The incident ID is:?.{0,600}This page can't be displayed\.?.{0,200}Contact support for additional information/is, 0.9)
  ]),
  p("Imperva Advanced Bot Protection (Distil)", "Imperva (Thales)", W("distil"), [
    body(/distilCaptchaForm|distilCallbackGuard|cdn\.distilnetworks\.com\/images\/anomaly/i, 0.9, "challenge"),
    h("x-distil-cs", /./, 0.7)
  ]),
  proxy(p("AWS API Gateway", "Amazon Web Services", "https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html", [
    h("x-amzn-requestid", /./, 0.2),
    h("x-amz-apigw-id", /./, 0.85),
    edge(h("x-amzn-errortype", /ForbiddenException|AccessDeniedException/i, 0.5))
  ])),
  proxy(p("Azure API Management", "Microsoft", "https://learn.microsoft.com/en-us/azure/api-management/api-management-howto-ip-filtering", [
    h("ocp-apim-trace-location", /./, 0.85),
    bodyR(/"statusCode":\s*40[13],\s*"message":\s*"(?:Access denied due to|Caller IP address)/i, 0.7)
  ])),
  p("Google Cloud reCAPTCHA WAF", "Google Cloud", "https://cloud.google.com/recaptcha/docs/waf-overview", [
    bodyR(/recaptcha\/enterprise\.js.{0,300}waf=session|google\.com\/recaptcha\/challengepage/is, 0.85, "challenge")
  ]),
]
