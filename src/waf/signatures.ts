/**
 * The WAF signature table: data, not code paths. Each provider lists signatures, each naming its
 * evidence kind and weight (0-1). The detector (analyze.ts) combines the weights of matching
 * signatures by noisy-OR: confidence = 1 − Π(1 − weight).
 *
 * Evidence kinds:
 *  - block-header: a response header that states the request was challenged or blocked (highest confidence)
 *  - header:       a provider-specific response header (name, optionally a value pattern)
 *  - server:       the Server header
 *  - cookie:       a Set-Cookie name; `challenge` marks cookies issued by a challenge / bot check
 *  - body:         block or challenge page text; `page` says which
 *  - status:       a status code the provider uses for its blocks (weak alone)
 *
 * `last_verified_at` is the date the entry was last reviewed against the vendor documentation
 * cited in `source_url` and the replica tests (test/waf), not a live scan.
 */

export type EvidenceKind = "block-header" | "header" | "server" | "cookie" | "body" | "status"
export type BlockCategory = "none" | "waf-block" | "rate-limit" | "provider-block" | "country-block" | "custom-block"

export interface Signature {
  readonly kind: EvidenceKind
  /** Header name (lower case) for header and block-header kinds. */
  readonly header?: string
  /** Tested against the header value, Server value, cookie name, body text or status code. */
  readonly pattern: RegExp
  readonly weight: number
  /** Cookie issued by a challenge (medium enforcement). */
  readonly challenge?: boolean
  /** Body pattern of a block page or a challenge page. */
  readonly page?: "block" | "challenge"
  /** What a match says about why the request was refused. */
  readonly category?: Exclude<BlockCategory, "none" | "custom-block">
  /** Body pattern that also appears on ordinary pages (bot-detection scripts, quoted error codes): counts only on a refusal status (≥ 400). */
  readonly refusalOnly?: boolean
}

export interface ProviderEntry {
  readonly name: string
  readonly vendor: string
  readonly source_url: string
  readonly last_verified_at: string
  /** Via header pattern naming this provider's hop (topology ordering). */
  readonly via?: RegExp
  readonly signatures: ReadonlyArray<Signature>
}

const REVIEWED = "2026-11-22"

const h = (header: string, pattern: RegExp = /./, weight = 0.6): Signature => ({ kind: "header", header, pattern, weight })
const bh = (header: string, pattern: RegExp, weight = 0.95, category?: Signature["category"]): Signature => ({ kind: "block-header", header, pattern, weight, ...(category ? { category } : {}) })
const server = (pattern: RegExp, weight = 0.7): Signature => ({ kind: "server", pattern, weight })
const cookie = (pattern: RegExp, weight = 0.6, challenge = false): Signature => ({ kind: "cookie", pattern, weight, ...(challenge ? { challenge } : {}) })
const body = (pattern: RegExp, weight = 0.7, page: "block" | "challenge" = "block", category?: Signature["category"]): Signature => ({ kind: "body", pattern, weight, page, ...(category ? { category } : {}) })
/** Body signature that counts only when the status is a refusal (≥ 400). */
const bodyR = (pattern: RegExp, weight = 0.7, page: "block" | "challenge" = "block", category?: Signature["category"]): Signature => ({ ...body(pattern, weight, page, category), refusalOnly: true })
const status = (pattern: RegExp, weight = 0.15): Signature => ({ kind: "status", pattern, weight })

const p = (name: string, vendor: string, source_url: string, signatures: ReadonlyArray<Signature>, via?: RegExp): ProviderEntry =>
  ({ name, vendor, source_url, last_verified_at: REVIEWED, signatures, ...(via ? { via } : {}) })

export const PROVIDERS: ReadonlyArray<ProviderEntry> = [
  p("Cloudflare", "Cloudflare, Inc.", "https://developers.cloudflare.com/fundamentals/reference/http-headers/", [
    bh("cf-mitigated", /challenge/i),
    server(/^cloudflare/i, 0.8),
    h("cf-ray", /^[0-9a-f]{16}/i, 0.8),
    h("cf-cache-status", /./, 0.5),
    cookie(/^cf_clearance$/, 0.7, true),
    cookie(/^__cf_bm$/, 0.6, true),
    cookie(/^__cfduid$|^_cfuvid$|^__cflb$/, 0.5),
    bodyR(/error code:?\s*1020|Error\s*1020\b/i, 0.95, "block", "provider-block"),
    bodyR(/error code:?\s*1009|Error\s*1009|has banned the country or region/i, 0.95, "block", "country-block"),
    bodyR(/error code:?\s*1015|Error\s*1015|You are being rate limited/i, 0.9, "block", "rate-limit"),
    body(/Attention Required! \| Cloudflare|cf-error-details|Sorry, you have been blocked.{0,400}Cloudflare Ray ID/is, 0.9, "block"),
    // The challenge-platform path also serves the bot-detection script injected into ordinary pages.
    bodyR(/\/cdn-cgi\/challenge-platform\/|cf-browser-verification|cf_chl_opt/i, 0.9, "challenge"),
    body(/<title>Just a moment\.\.\.<\/title>/i, 0.4, "challenge")
  ]),
  p("Akamai", "Akamai Technologies", "https://techdocs.akamai.com/property-mgr/docs/akamai-headers", [
    server(/AkamaiGHost|AkamaiNetStorage/i, 0.85),
    h("akamai-grn", /./, 0.8),
    h("x-akamai-transformed", /./, 0.6),
    h("akamai-cache-status", /./, 0.6),
    h("x-akamai-request-id", /./, 0.6),
    cookie(/^ak_bmsc$|^bm_sz$|^_abck$|^bm_sv$/, 0.6, true),
    body(/Reference\s*#\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i, 0.8, "block"),
    body(/errors\.edgesuite\.net/i, 0.85, "block")
  ], /akamai/i),
  p("Imperva Incapsula", "Imperva (Thales)", "https://docs.imperva.com/bundle/cloud-application-security/page/settings/cookies.htm", [
    cookie(/^incap_ses_/, 0.8),
    cookie(/^visid_incap_/, 0.8),
    cookie(/^nlbi_/, 0.5),
    cookie(/^reese84$/, 0.6, true),
    h("x-iinfo", /./, 0.85),
    h("x-cdn", /Incapsula|Imperva/i, 0.85),
    body(/Incapsula incident ID|_Incapsula_Resource|Request unsuccessful\. Incapsula incident/i, 0.95, "block"),
    body(/Powered By Incapsula|Imperva Cloud WAF/i, 0.7, "block")
  ]),
  p("AWS WAF", "Amazon Web Services", "https://docs.aws.amazon.com/waf/latest/developerguide/waf-captcha-and-challenge-how-it-works.html", [
    bh("x-amzn-waf-action", /captcha|challenge|block/i),
    cookie(/^aws-waf-token$/, 0.8, true),
    bodyR(/awswaf|AwsWafIntegration|challenge\.js.{0,200}token\.awswaf\.com/i, 0.9, "challenge"),
    // CloudFront's error page when AWS WAF blocks at the edge (also shown for other edge refusals, hence the weight).
    body(/Request blocked\.\s*We can't connect to the server for this app or website at this time/is, 0.6, "block")
  ]),
  p("Amazon CloudFront", "Amazon Web Services", "https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/RequestAndResponseBehaviorCustomOrigin.html", [
    h("x-amz-cf-id", /./, 0.85),
    h("x-amz-cf-pop", /./, 0.8),
    h("x-cache", /cloudfront/i, 0.8),
    h("via", /CloudFront/i, 0.8),
    server(/^CloudFront$/i, 0.8),
    body(/Generated by cloudfront \(CloudFront\)/i, 0.9, "block")
  ], /cloudfront/i),
  p("AWS Elastic Load Balancing", "Amazon Web Services", "https://docs.aws.amazon.com/elasticloadbalancing/latest/application/sticky-sessions.html", [
    server(/^awselb\//i, 0.85),
    cookie(/^AWSALB$|^AWSALBCORS$|^AWSELB$|^AWSALBTG/, 0.7)
  ]),
  p("Azure Front Door", "Microsoft", "https://learn.microsoft.com/en-us/azure/frontdoor/front-door-http-headers-protocol", [
    h("x-azure-ref", /./, 0.85),
    h("x-fd-int-roxy-purgeid", /./, 0.5),
    body(/The request is blocked\.|x-azure-ref.{0,80}Forbidden/i, 0.6, "block")
  ]),
  p("Azure CDN", "Microsoft", "https://learn.microsoft.com/en-us/azure/cdn/cdn-verizon-http-headers", [
    h("x-msedge-ref", /./, 0.8),
    h("x-ec-debug", /./, 0.4)
  ]),
  p("Azure Application Gateway", "Microsoft", "https://learn.microsoft.com/en-us/azure/web-application-firewall/ag/ag-overview", [
    server(/Microsoft-Azure-Application-Gateway/i, 0.9),
    cookie(/^ApplicationGatewayAffinity(CORS)?$/, 0.7),
    body(/Microsoft-Azure-Application-Gateway\/v2/i, 0.85, "block")
  ]),
  p("Google Cloud Armor", "Google Cloud", "https://cloud.google.com/armor/docs/configure-bot-management", [
    cookie(/^recaptcha-ca-[te]$/, 0.8, true),
    h("via", /\b1\.1 google\b/i, 0.25),
    body(/Your client does not have permission to get URL/i, 0.5, "block")
  ], /google/i),
  p("Fastly", "Fastly, Inc.", "https://www.fastly.com/documentation/reference/http/http-headers/", [
    h("x-served-by", /cache-[a-z0-9-]+/i, 0.7),
    h("x-fastly-request-id", /./, 0.85),
    h("fastly-debug-digest", /./, 0.8),
    h("x-timer", /^S\d+\.\d+,VS\d/, 0.6),
    body(/Fastly error: unknown domain/i, 0.8, "block")
  ], /varnish/i),
  p("Fastly Next-Gen WAF (Signal Sciences)", "Fastly, Inc.", "https://docs.fastly.com/signalsciences/", [
    h("x-sigsci-requestid", /./, 0.9),
    h("x-sigsci-agentresponse", /./, 0.9),
    bh("x-sigsci-agentresponse", /^40[0-9]$/, 0.95)
  ]),
  p("Sucuri", "Sucuri (GoDaddy)", "https://docs.sucuri.net/website-firewall/troubleshooting/", [
    server(/Sucuri\/Cloudproxy/i, 0.9),
    h("x-sucuri-id", /./, 0.9),
    h("x-sucuri-cache", /./, 0.7),
    bh("x-sucuri-block", /./),
    cookie(/^sucuri_cloudproxy_uuid_/, 0.8, true),
    body(/Access from your Country was disabled by the administrator/i, 0.95, "block", "country-block"),
    body(/Access Denied - Sucuri Website Firewall|Sucuri WebSite Firewall - Access Denied|cloudproxy@sucuri\.net/i, 0.95, "block")
  ]),
  p("F5 BIG-IP ASM / Advanced WAF", "F5, Inc.", "https://my.f5.com/manage/s/article/K6850", [
    cookie(/^TS[0-9a-f]{6,8}(_\d+)?$/, 0.7),
    cookie(/^BIGipServer/, 0.35),
    cookie(/^F5_ST$|^MRHSession$|^LastMRH_Session$/, 0.6),
    server(/^BIG-?IP$/i, 0.8),
    body(/The requested URL was rejected\. Please consult with your administrator\./i, 0.95, "block"),
    body(/Your support ID is:?\s*\d+/i, 0.6, "block")
  ]),
  p("F5 Distributed Cloud", "F5, Inc.", "https://docs.cloud.f5.com/docs/how-to/app-security/web-app-firewall", [
    server(/^volt-adc$/i, 0.9),
    h("x-volterra-location", /./, 0.8)
  ]),
  p("Barracuda WAF", "Barracuda Networks", "https://campus.barracuda.com/product/webapplicationfirewall/doc/4259913/", [
    cookie(/^barra_counter_session$/, 0.85),
    cookie(/^BNI__BARRACUDA_LB_COOKIE$|^BNI_persistence$/, 0.7),
    body(/You have been blocked.{0,300}Barracuda|barracuda\.com.{0,100}blocked/is, 0.8, "block")
  ]),
  p("FortiWeb", "Fortinet", "https://docs.fortinet.com/product/fortiweb", [
    cookie(/^FORTIWAFSID$/, 0.9),
    cookie(/^cookiesession1$/, 0.25),
    server(/FortiWeb/i, 0.9),
    body(/\.fgd_icon|Server Unavailable!.{0,400}FortiWeb|Web Page Blocked.{0,400}Attack ID/is, 0.85, "block")
  ]),
  p("Citrix NetScaler AppFirewall", "Cloud Software Group (Citrix)", "https://docs.netscaler.com/en-us/citrix-adc/current-release/application-firewall.html", [
    cookie(/^ns_af=?|^citrix_ns_id$|^NSC_/, 0.75),
    h("via", /NS-CACHE/i, 0.7),
    h("cneonction", /./, 0.6),
    h("nncoection", /./, 0.6),
    body(/NS Transaction ID|AppFW Session ID|Violation Category:\s*APPFW_/i, 0.9, "block")
  ], /NS-CACHE/i),
  p("Radware AppWall / Cloud WAF", "Radware", "https://www.radware.com/products/cloud-waf-service/", [
    h("x-sl-compstate", /./, 0.85),
    body(/Unauthorized Activity Has Been Detected.{0,400}Case Number/is, 0.95, "block"),
    body(/radwarealert@radware\.com/i, 0.8, "block")
  ]),
  p("Radware Bot Manager (ShieldSquare)", "Radware", "https://www.radware.com/products/bot-manager/", [
    cookie(/^__uzm[abcd]$/, 0.7, true),
    body(/validate\.perfdrive\.com|captcha\.perfdrive\.com/i, 0.9, "challenge")
  ]),
  p("Reblaze", "Reblaze", "https://gb.docs.reblaze.com/", [
    cookie(/^rbzid$|^rbzsessionid$/, 0.8, true),
    server(/Reblaze Secure Web Gateway/i, 0.9),
    body(/Access Denied \(403\).{0,300}reblaze|rbzns/is, 0.8, "block")
  ]),
  p("StackPath", "StackPath", "https://support.stackpath.com/hc/en-us/articles/360001091666-WAF-Overview", [
    h("x-sp-url", /./, 0.6),
    h("x-sp-waf", /./, 0.8),
    server(/^StackPath$/i, 0.8),
    body(/You performed an action (?:that|which) triggered the service and blocked your request|This website is using a security service to protect itself from online attacks|StackPath.{0,200}Sorry, you have been blocked/is, 0.9, "block")
  ]),
  p("DDoS-Guard", "DDoS-Guard", "https://ddos-guard.net/en/info/manual", [
    server(/^ddos-guard$/i, 0.9),
    cookie(/^__ddg[12]_?$|^__ddgid_$|^__ddgmark_$|^__ddg\d/, 0.8, true),
    body(/DDoS-Guard|check\.ddos-guard\.net/i, 0.7, "challenge")
  ]),
  p("Wordfence", "Defiant, Inc.", "https://www.wordfence.com/help/firewall/", [
    bodyR(/Generated by Wordfence|Your access to this site has been limited by the site owner|wordfence\.com\/help\/\?query=locked-out/i, 0.95, "block"),
    cookie(/^wfwaf-authcookie-|^wordfence_verifiedHuman$|^wfvt_/, 0.7),
    status(/^503$/, 0.1)
  ]),
  p("ModSecurity", "OWASP ModSecurity", "https://github.com/owasp-modsecurity/ModSecurity/wiki/Reference-Manual-(v3.x)", [
    server(/Mod_Security|NOYB/i, 0.85),
    bodyR(/This error was generated by Mod_?Security|ModSecurity Action|Mod_Security/i, 0.9, "block"),
    body(/Not Acceptable!.{0,300}An appropriate representation of the requested resource could not be found/is, 0.75, "block"),
    status(/^(406|501)$/, 0.15)
  ]),
  p("Wallarm", "Wallarm", "https://docs.wallarm.com/", [
    server(/nginx-wallarm|wallarm/i, 0.9),
    h("x-wallarm-node", /./, 0.8)
  ]),
  p("Edgecast (Edgio)", "Edgio", "https://docs.edg.io/applications/v7/security/waf", [
    server(/^ECAcc\b|^ECS \(|^ECD \(|^EOS \(/i, 0.85),
    h("x-ec-custom-error", /./, 0.8),
    h("x-hw", /./, 0.5)
  ]),
  p("Alibaba Cloud WAF", "Alibaba Cloud", "https://www.alibabacloud.com/help/en/waf/", [
    cookie(/^aliyungf_tc$/, 0.85),
    cookie(/^acw_tc$/, 0.7),
    cookie(/^acw_sc__v[23]$/, 0.85, true),
    h("eagleid", /./, 0.25),
    body(/errors\.aliyun\.com|block\.aliyun|Sorry, your request has been blocked as it may cause potential threats to the server's security/i, 0.9, "block")
  ]),
  p("Tencent Cloud WAF", "Tencent Cloud", "https://www.tencentcloud.com/document/product/627", [
    body(/waf\.tencent-cloud\.com|腾讯云\s*Web\s*应用防火墙|TencentCloud WAF/i, 0.9, "block"),
    h("x-nws-log-uuid", /./, 0.25),
    server(/^tencent/i, 0.2)
  ]),
  p("Baidu Yunjiasu", "Baidu", "https://su.baidu.com/", [
    server(/yunjiasu/i, 0.9),
    body(/yunjiasu-cdn|href="https?:\/\/yunjiasu\.baidu\.com/i, 0.8, "block")
  ]),
  p("Huawei Cloud WAF", "Huawei Cloud", "https://support.huaweicloud.com/intl/en-us/waf/", [
    cookie(/^HWWAFSESID$|^HWWAFSESTIME$/, 0.9),
    body(/hwclouds\.com.{0,200}(?:blocked|拦截)|HuaweiCloudWAF/is, 0.8, "block")
  ]),
  p("Vercel Firewall", "Vercel", "https://vercel.com/docs/vercel-firewall/firewall-observability", [
    bh("x-vercel-mitigated", /challenge|deny/i),
    h("x-vercel-id", /./, 0.6),
    server(/^Vercel$/i, 0.7),
    h("x-vercel-cache", /./, 0.4)
  ]),
  p("DataDome", "DataDome", "https://docs.datadome.co/docs/headers", [
    h("x-datadome", /./, 0.85),
    h("x-datadome-cid", /./, 0.85),
    h("x-dd-b", /./, 0.6),
    server(/^DataDome$/i, 0.9),
    cookie(/^datadome$/, 0.8, true),
    bodyR(/geo\.captcha-delivery\.com|ct\.captcha-delivery\.com/i, 0.95, "challenge")
  ]),
  p("HUMAN (PerimeterX)", "HUMAN Security", "https://docs.humansecurity.com/applications-and-accounts/docs/cookies", [
    cookie(/^_px[3-9]?$|^_pxhd$|^_pxvid$|^_pxff_/, 0.75, true),
    bodyR(/px-captcha|captcha\.px-cdn\.net|window\._pxAppId/i, 0.9, "challenge")
  ]),
  p("Kasada", "Kasada", "https://www.kasada.io/", [
    h("x-kpsdk-ct", /./, 0.85),
    h("x-kpsdk-r", /./, 0.7),
    bodyR(/ips\.js\?.{0,100}KPSDK|window\.KPSDK/is, 0.9, "challenge")
  ]),
  p("Imunify360", "CloudLinux", "https://docs.imunify360.com/", [
    server(/imunify360-webshield/i, 0.95),
    body(/Powered by Imunify360|imunify360-webshield/i, 0.9, "block")
  ]),
  p("BitNinja", "BitNinja", "https://doc.bitninja.io/", [
    body(/Security check by BitNinja|BitNinja.{0,100}(?:captcha|Security check)/is, 0.95, "challenge"),
    server(/bitninja/i, 0.8)
  ]),
  p("SiteLock TrueShield", "SiteLock", "https://www.sitelock.com/trueshield", [
    body(/SiteLock Incident ID|sitelock-site-verification.{0,200}blocked/is, 0.9, "block")
  ]),
  p("Comodo cWatch", "Comodo Security", "https://cwatch.comodo.com/", [
    server(/Protected by COMODO WAF/i, 0.95)
  ]),
  p("NSFOCUS WAF", "NSFOCUS", "https://nsfocusglobal.com/products/web-application-firewall/", [
    server(/NSFocus/i, 0.95),
    body(/NSFOCUS.{0,200}(?:block|拦截)/is, 0.7, "block")
  ]),
  p("Sophos UTM Web Protection", "Sophos", "https://docs.sophos.com/nsg/sophos-utm/utm/9.711/help/en-us/Content/utm/utmAdminGuide/WAFGlobal.htm", [
    body(/Powered by UTM Web Protection/i, 0.95, "block")
  ]),
  p("Palo Alto Next-Generation Firewall", "Palo Alto Networks", "https://docs.paloaltonetworks.com/pan-os/10-2/pan-os-admin/url-filtering/url-filtering-response-pages", [
    body(/Virus\/Spyware Download Blocked|Palo Alto Next Generation Security Platform|URL Filtering.{0,200}Palo Alto/is, 0.9, "block")
  ]),
  p("Anquanbao", "Anquanbao", "https://www.anquanbao.com/", [
    h("x-powered-by-anquanbao", /./, 0.95),
    body(/aqb_cc\/error\//i, 0.9, "block")
  ]),
  p("Yundun", "Yundun", "https://www.yundun.com/", [
    server(/YUNDUN/i, 0.9),
    h("x-cache", /YUNDUN/i, 0.8),
    cookie(/^yd_cookie$/, 0.7, true)
  ]),
  p("Safedog", "Safedog", "https://www.safedog.cn/", [
    server(/Safedog/i, 0.9),
    cookie(/^safedog-flow-item$/, 0.85),
    body(/safedogsite|404\.safedog\.cn/i, 0.85, "block")
  ]),
  p("Qi-Anxin WangZhanBao (360)", "Qi-Anxin", "https://wangzhan.qianxin.com/", [
    server(/qianxin-waf|360wzws/i, 0.95),
    h("x-powered-by-360wzb", /./, 0.95),
    body(/wzws-waf-cgi|wangshan\.360\.cn|360wzws/i, 0.8, "block")
  ]),
  p("Qrator", "Qrator Labs", "https://qrator.net/", [
    server(/^QRATOR$/i, 0.95)
  ]),
  p("Variti", "Variti", "https://variti.io/", [
    server(/^Variti/i, 0.95)
  ]),
  p("Myra Security", "Myra Security", "https://www.myrasecurity.com/", [
    server(/myracloud/i, 0.9),
    body(/myracloud|This site is protected by Myra/i, 0.7, "block")
  ]),
  p("ArvanCloud", "ArvanCloud", "https://www.arvancloud.ir/en/", [
    server(/ArvanCloud/i, 0.9),
    h("ar-poweredby", /Arvan/i, 0.9),
    h("ar-request-id", /./, 0.6)
  ]),
  p("IBM Security Verify Access (WebSEAL)", "IBM", "https://www.ibm.com/docs/en/sva", [
    server(/WebSEAL/i, 0.9),
    body(/This is a WebSEAL error message template file/i, 0.9, "block")
  ]),
  p("Nexusguard", "Nexusguard", "https://www.nexusguard.com/", [
    body(/Powered by Nexusguard|speresources\.nexusguard\.com/i, 0.9, "block")
  ]),
  p("Cloudbric", "Cloudbric (Penta Security)", "https://www.cloudbric.com/", [
    body(/Cloudbric \| ERROR!|Your request was blocked by Cloudbric/i, 0.95, "block"),
    h("x-cloudbric", /./, 0.8)
  ]),
  p("NAXSI", "NBS System", "https://github.com/nbs-system/naxsi/wiki", [
    h("x-data-origin", /naxsi/i, 0.9),
    body(/blocked by naxsi|naxsi_sig/i, 0.8, "block")
  ]),
  p("Shield Security", "Shield Security (WordPress)", "https://help.getshieldsecurity.com/", [
    body(/Something in the URL, Form or Cookie data wasn't appropriate/i, 0.9, "block")
  ]),
  p("ChinaCache", "ChinaCache", "https://en.chinacache.com/", [
    h("powered-by-chinacache", /./, 0.9)
  ])
]
