import { bh, body, bodyR, cookie, h, p, type ProviderEntry, server, status } from "./dsl"

export const APPLIANCE: ReadonlyArray<ProviderEntry> = [
  p("F5 BIG-IP ASM / Advanced WAF", "F5, Inc.", "https://my.f5.com/manage/s/article/K6850", [
    // TS + 6 to 12 hex digits (with a _NN suffix on some versions); TSPD_ is its bot defence.
    cookie(/^TS[0-9a-f]{6,12}(?:_\d+)?$/i, 0.7),
    cookie(/^TSPD_\d+$/i, 0.75, true),
    server(/^BIG-?IP$/i, 0.8),
    body(/The requested URL was rejected\.?\s*(?:<[^>]*>\s*)*Please consult with your administrator/i, 0.95, "block"),
    body(/Your support ID is:?\s*(?:<[^>]*>\s*)*\d+/i, 0.6, "block")
  ]),
  p("Barracuda WAF", "Barracuda Networks", "https://campus.barracuda.com/product/webapplicationfirewall/doc/4259913/", [
    cookie(/^barra_counter_session$/, 0.85),
    cookie(/^BNI__BARRACUDA_LB_COOKIE$|^BNI_persistence$/i, 0.7),
    // Its cookie security encrypts or signs the application's cookies under BNES_ / BNIS_ names.
    cookie(/^BN[EI]S_/, 0.75),
    body(/You have been blocked.{0,300}Barracuda|barracuda\.com.{0,100}blocked/is, 0.8, "block"),
    bodyR(/Barracuda.Networks.{0,400}(?:blocked|denied|rejected)|(?:blocked|denied|rejected).{0,400}Barracuda.Networks/is, 0.7, "block")
  ]),
  p("FortiWeb", "Fortinet", "https://docs.fortinet.com/product/fortiweb", [
    cookie(/^FORTIWAFSID$/, 0.9),
    cookie(/^cookiesession1$/, 0.25),
    server(/FortiWeb/i, 0.9),
    body(/fgd_icon|Server Unavailable!.{0,400}FortiWeb|Web Page Blocked.{0,400}Attack ID/is, 0.85, "block")
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
    body(/radwarealert@radware\.com|CloudWebSec\.radware\.com/i, 0.8, "block"),
    // Its cloud WAF's page: "Unauthorized Request Blocked … because we have detected unauthorized activity".
    bodyR(/<title>Unauthorized Request Blocked|because we have detected unauthorized activity|\?Subject=Security Page.{0,10}Case Number/i, 0.85, "block")
  ]),
  p("Fastly Next-Gen WAF (Signal Sciences)", "Fastly, Inc.", "https://docs.fastly.com/signalsciences/", [
    h("x-sigsci-requestid", /./, 0.9),
    h("x-sigsci-agentresponse", /./, 0.9),
    bh("x-sigsci-agentresponse", /^40[0-9]$/, 0.95)
  ]),
  p("Wallarm", "Wallarm", "https://docs.wallarm.com/", [
    server(/nginx-wallarm|wallarm/i, 0.9),
    h("x-wallarm-node", /./, 0.8)
  ]),
  p("NSFOCUS WAF", "NSFOCUS", "https://nsfocusglobal.com/products/web-application-firewall/", [
    server(/NSFocus/i, 0.95),
    bodyR(/NSFOCUS.{0,200}(?:block|拦截)/is, 0.7, "block")
  ]),
  p("Sophos UTM Web Protection", "Sophos", "https://docs.sophos.com/nsg/sophos-utm/utm/9.711/help/en-us/Content/utm/utmAdminGuide/WAFGlobal.htm", [
    bodyR(/Powered by.?(?:Sophos)? ?UTM Web Protection|Access to the requested URL was blocked.{0,400}incident was logged with the following log identifier/is, 0.95, "block"),
    bodyR(/<title>Access to the requested URL was blocked/i, 0.8, "block")
  ]),
  p("Palo Alto Next-Generation Firewall", "Palo Alto Networks", "https://docs.paloaltonetworks.com/pan-os/10-2/pan-os-admin/url-filtering/url-filtering-response-pages", [
    bodyR(/Virus\/Spyware Download Blocked|Download of (?:the )?virus.spyware (?:has been )?blocked|Palo Alto Next Generation Security Platform/is, 0.9, "block")
  ]),
  p("IBM Security Verify Access (WebSEAL)", "IBM", "https://www.ibm.com/docs/en/sva", [
    server(/WebSEAL/i, 0.9),
    body(/This is a WebSEAL error message template file|WebSEAL server received an invalid HTTP request/i, 0.9, "block")
  ])
]
