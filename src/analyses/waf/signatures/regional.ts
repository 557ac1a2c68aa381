import { body, bodyR, cdn, cookie, h, p, type ProviderEntry, server, status } from "./dsl"

export const REGIONAL: ReadonlyArray<ProviderEntry> = [
  p("DDoS-Guard", "DDoS-Guard", "https://ddos-guard.net/en/info/manual", [
    server(/ddos-guard/i, 0.9),
    cookie(/^__ddg(?:\d|id|mark)/i, 0.8, true),
    body(/check\.ddos-guard\.net/i, 0.8, "challenge"),
    bodyR(/DDoS-Guard/i, 0.5, "challenge")
  ]),
  p("Alibaba Cloud WAF", "Alibaba Cloud", "https://www.alibabacloud.com/help/en/waf/", [
    cookie(/^aliyungf_tc$/, 0.85),
    cookie(/^acw_tc$/, 0.7),
    cookie(/^acw_sc__v[23]$/, 0.85, true),
    h("eagleid", /./, 0.25),
    body(/errors?\.aliyun(?:dun)?\.(?:com|net)|block\.aliyun|Sorry, your request has been blocked as it may cause potential threats to the server's security/i, 0.9, "block")
  ]),
  p("Tencent Cloud WAF", "Tencent Cloud", "https://www.tencentcloud.com/document/product/627", [
    body(/waf\.tencent-?cloud\.com|腾讯云\s*Web\s*应用防火墙|TencentCloud WAF/i, 0.9, "block"),
    h("x-nws-log-uuid", /./, 0.25),
    server(/^tencent/i, 0.2)
  ]),
  p("Baidu Yunjiasu", "Baidu", "https://su.baidu.com/", [
    server(/yunjiasu/i, 0.9),
    body(/yunjiasu-cdn|href="https?:\/\/yunjiasu\.baidu\.com/i, 0.8, "block")
  ]),
  p("Huawei Cloud WAF", "Huawei Cloud", "https://support.huaweicloud.com/intl/en-us/waf/", [
    cookie(/^HWWAFSESID$|^HWWAFSESTIME$/i, 0.9),
    server(/HuaweiCloudWAF/i, 0.9),
    body(/hwclouds\.com.{0,200}(?:blocked|拦截)|HuaweiCloudWAF|hws_security@/is, 0.8, "block")
  ]),
  p("Anquanbao", "Anquanbao", "https://www.anquanbao.com/", [
    h("x-powered-by-anquanbao", /./, 0.95),
    body(/aqb_cc\/error\//i, 0.9, "block")
  ]),
  p("Yundun", "Yundun", "https://www.yundun.com/", [
    server(/YUNDUN/i, 0.9),
    h("x-cache", /YUNDUN/i, 0.8),
    cookie(/^yd_cookie$/i, 0.7, true),
    body(/Blocked by YUNDUN Cloud WAF|yundun\.com\/yd[-_]http[-_]error\//i, 0.9, "block"),
    bodyR(/www\.yundun\.com\/static\/js\/fingerprint\d?\.js/i, 0.7, "challenge")
  ]),
  p("Safedog", "Safedog", "https://www.safedog.cn/", [
    server(/Safedog/i, 0.9),
    cookie(/^safedog-flow-item$/, 0.85),
    body(/safedogsite|404\.safedog\.cn/i, 0.85, "block")
  ]),
  p("Qi-Anxin WangZhanBao (360)", "Qi-Anxin", "https://wangzhan.qianxin.com/", [
    server(/qianxin-waf|360wzws/i, 0.95),
    h("x-powered-by-360wzb", /./, 0.95),
    h("wzws-ray", /./, 0.9),
    body(/wzws-waf-cgi|wangshan\.360\.cn|360wzws/i, 0.8, "block")
  ]),
  p("Qrator", "Qrator Labs", "https://qrator.net/", [
    server(/QRATOR/i, 0.95)
  ]),
  p("Variti", "Variti", "https://variti.io/", [
    server(/^Variti/i, 0.95)
  ]),
  p("Myra Security", "Myra Security", "https://www.myrasecurity.com/", [
    server(/myracloud/i, 0.9),
    bodyR(/myracloud|This site is protected by Myra/i, 0.7, "block")
  ]),
  p("ArvanCloud", "ArvanCloud", "https://www.arvancloud.ir/en/", [
    server(/ArvanCloud/i, 0.9),
    h("ar-poweredby", /Arvan/i, 0.9),
    h("ar-request-id", /./, 0.6)
  ]),
  cdn(p("ChinaCache", "ChinaCache", "https://en.chinacache.com/", [
    h("powered-by-chinacache", /./, 0.9)
  ]))
]
