/** Chinese clouds, CDNs and WAF vendors beyond those in regional.ts. */
import { body, bodyR, cdn, cookie, h, p, type ProviderEntry, server } from "./dsl"

const W = (plugin: string) => `https://github.com/EnableSecurity/wafw00f/blob/master/wafw00f/plugins/${plugin}.py`

export const CHINA: ReadonlyArray<ProviderEntry> = [
  cdn(p("Tencent EdgeOne", "Tencent Cloud", "https://www.tencentcloud.com/document/product/1145/46272", [
    h("eo-log-uuid", /./, 0.85),
    h("eo-cache-status", /./, 0.7)
  ])),
  cdn(p("Wangsu (ChinaNetCenter)", "Wangsu Science & Technology", "https://en.wangsu.com/document/cdn/", [
    h("x-ws-request-id", /./, 0.85),
    h("via", /\(Cdn Cache Server V\d/i, 0.7)
  ], /Cdn Cache Server/i)),
  cdn(p("Alibaba Cloud CDN", "Alibaba Cloud", "https://www.alibabacloud.com/help/en/cdn/user-guide/configure-custom-http-response-headers", [
    server(/^Tengine$/i, 0.2),
    h("ali-swift-global-savetime", /./, 0.85),
    h("x-swift-cachetime", /./, 0.6),
    h("x-swift-savetime", /./, 0.6)
  ])),
  p("Jiasule", "Jiasule (Knownsec)", W("jiasule"), [
    server(/jiasule-waf/i, 0.9),
    cookie(/^jsl_tracking|^__jsluid/, 0.8, true),
    bodyR(/notice-jiasule|static\.jiasule\.com/i, 0.85)
  ]),
  p("Chuang Yu Shield (Knownsec)", "Knownsec (Yunaq)", W("chuangyu"), [
    body(/www\.365cyd\.com|help\.365cyd\.com\/cyd-error-help/i, 0.9, "block")
  ]),
  p("KS-WAF (Knownsec)", "Knownsec", W("knownsec"), [
    body(/\/ks[-_]waf[-_]error\.png/i, 0.9, "block")
  ]),
  p("360PanYun", "360 Technologies", W("panyun360"), [
    server(/panyun/i, 0.9),
    h("x-panyun-request-id", /./, 0.85),
    h("x-panyun-error-reason", /./, 0.85)
  ]),
  p("Yunsuo", "Yunsuo", W("yunsuo"), [
    cookie(/^yunsuo_session$/, 0.85),
    body(/class="yunsuologo"/i, 0.9, "block")
  ]),
  p("SafeLine (Chaitin)", "Chaitin Tech", "https://docs.waf.chaitin.com/en/home", [
    bodyR(/<!--\s*event[ _]id:\s*[0-9a-f]+|safeline-waf|chaitin\.cn\/safeline|Powered by SafeLine|SafeLine WAF|waf\.chaitin\.c(?:om|n)/i, 0.85)
  ]),
  p("Xuanwudun (DBAPPSecurity)", "DBAPPSecurity", W("xuanwudun"), [
    body(/admin\.dbappwaf\.cn/i, 0.9, "block"),
    bodyR(/class=.db[-_]?waf(?:[-_]?row)?\b/i, 0.6)
  ]),
  p("Bluedon WAF", "Bluedon IST", W("bluedon"), [
    server(/BDWAF/i, 0.9),
    bodyR(/bluedon web application firewall/i, 0.9, "block")
  ]),
  p("Eisoo Cloud Firewall", "Eisoo", W("eisoo"), [
    server(/EisooWAF/i, 0.9),
    body(/href="\/eisoo-firewall-block\.css|(?:&copy;|\u00a9) \d{4} Eisoo Inc/i, 0.9, "block"),
    bodyR(/www\.eisoo\.com/i, 0.5)
  ]),
  p("Puhui WAF", "Puhui", W("puhui"), [
    server(/Puhui[-_]?WAF/i, 0.95)
  ]),
  p("Newdefend", "Newdefend", W("newdefend"), [
    server(/Newdefend/i, 0.9),
    body(/www\.newdefend\.com\/feedback|\/nd-block\//i, 0.85, "block")
  ]),
  p("YXLink WAF", "YxLink Technologies", W("yxlink"), [
    server(/Yxlink/i, 0.9),
    cookie(/^yx_ci_session$|^yx_language$/, 0.8)
  ]),
  p("WTS-WAF", "WTS", W("wts"), [
    server(/^wts\/[0-9.]+/i, 0.85),
    body(/<(?:title|h\d)>WTS-WAF/i, 0.9, "block")
  ]),
  p("UEWaf (UCloud)", "UCloud", W("uewaf"), [
    server(/^uewaf/i, 0.9),
    body(/\/uewaf_deny_pages\/default\/img\//i, 0.9, "block"),
    bodyR(/ucloud\.cn/i, 0.3)
  ]),
  cdn(p("Qiniu CDN", "Qiniu", W("qiniu"), [
    h("x-qiniu-cdn", /\d/, 0.9),
    h("x-qnm-cache", /./, 0.6)
  ])),
  cdn(p("West263 CDN", "West263", W("west263cdn"), [
    h("x-cache", /WS?T263CDN/i, 0.9)
  ])),
  p("AnYu", "AnYu Technologies", W("anyu"), [
    bodyR(/anyu.{0,10}the green channel|your access has been intercepted by anyu/i, 0.9, "block")
  ]),
  p("RayWAF (WebRay)", "WebRay Solutions", W("webray"), [
    server(/WebRay-WAF/i, 0.9),
    h("drivedby", /RaySrv.RayEng/i, 0.9)
  ]),
  p("SecKing", "SecKing", W("secking"), [
    server(/secking/i, 0.9)
  ]),
  p("CdnNS Application Gateway", "CdnNs / WdidcNet", W("cdnns"), [
    bodyR(/cdnnswaf application gateway/i, 0.9, "block")
  ]),
  p("SEnginx (Neusoft)", "Neusoft", W("senginx"), [
    body(/SENGINX-ROBOT-MITIGATION/, 0.9, "challenge")
  ]),
  p("Safe3 Web Firewall", "Safe3", W("safe3"), [
    server(/^Safe3 Web Firewall/i, 0.95),
    h("x-powered-by", /Safe3WAF\/[0-9.]+/i, 0.9),
    bodyR(/Safe3waf\/[0-9.]+/i, 0.8)
  ])
]
