/** CMS plugins and hosting firewalls beyond those in hosting.ts (WordPress, Joomla, DNN, …). */
import { body, bodyR, cookie, h, hosting, p, type ProviderEntry, server } from "./dsl"

const W = (plugin: string) => `https://github.com/EnableSecurity/wafw00f/blob/master/wafw00f/plugins/${plugin}.py`

export const CMS: ReadonlyArray<ProviderEntry> = [
  p("aeSecure", "aeSecure", W("aesecure"), [
    h("aesecure-code", /./, 0.9),
    body(/aesecure_denied\.png/i, 0.9, "block")
  ]),
  p("Astra Security", "Czar Securities (Astra)", W("astra"), [
    cookie(/^cz_astra_csrf_cookie/, 0.85),
    body(/astrawebsecurity\.freshdesk\.com|www\.getastra\.com\/assets\/images/i, 0.9, "block")
  ]),
  p("BulletProof Security Pro", "AITpro Security", W("bulletproof"), [
    bodyR(/bpsMessage.{0,800}403 Forbidden Error Page|403 Forbidden Error Page.{0,800}If you arrived here due to a search/is, 0.85)
  ]),
  p("WP Cerber Security", "Cerber Tech", "https://wpcerber.com/", [
    bodyR(/We.re sorry.{0,10}you are not allowed to proceed|Your request looks suspicious or similar to automated requests from spam posting software|our server stopped processing your request/i, 0.85)
  ]),
  p("CrawlProtect", "Jean-Denis Brun", W("crawlprotect"), [
    cookie(/^crawlprotecttag$/, 0.85),
    body(/<title>crawlprotect|this site is protected by crawlprotect/i, 0.9, "block")
  ]),
  p("MalCare", "Inactiv (MalCare)", "https://www.malcare.com/", [
    bodyR(/firewall.{0,15}powered.by.{0,15}malcare.{0,15}pro/is, 0.9, "block"),
    bodyR(/blocked because of malicious activities/i, 0.6)
  ]),
  p("NinjaFirewall", "NinTechNet", "https://nintechnet.com/ninjafirewall/", [
    bodyR(/<title>NinjaFirewall.{0,10}\d{3}.forbidden|For security reasons?.{0,10}it was blocked and logged/is, 0.9)
  ]),
  p("RSFirewall (Joomla)", "RSJoomla!", W("rsfirewall"), [
    body(/com_rsfirewall_(?:\d{3}_forbidden|event)/i, 0.9, "block")
  ]),
  p("SecuPress", "SecuPress", "https://secupress.me/", [
    bodyR(/<(?:title|h\d)>SecuPress/i, 0.9)
  ]),
  p("Patchstack (WebARX)", "Patchstack", "https://patchstack.com/", [
    body(/WebARX.{0,10}Web Application Firewall|www\.webarxsecurity\.com|\/wp-content\/plugins\/webarx\/includes\//i, 0.9, "block"),
    bodyR(/This request has been blocked by Patchstack|Patchstack Web Application Firewall/i, 0.9)
  ]),
  p("WebTotem", "WebTotem", W("webtotem"), [
    bodyR(/The current request was blocked.{0,80}>WebTotem/i, 0.9, "block")
  ]),
  p("WPMU DEV Defender", "Incsub (WPMU DEV)", W("wpmudev"), [
    bodyR(/<h1>Whoops, this request has been blocked!|This request has been deemed suspicious.{0,200}possible attack on our servers/is, 0.85),
    bodyR(/href="https?:\/\/wpmudev\.com\/.{0,15}/i, 0.3)
  ]),
  p("Virusdie", "Virusdie", W("virusdie"), [
    body(/cdn\.virusdie\.ru\/splash\/firewallstop\.png|&copy;.{0,10}Virusdie\.ru/i, 0.9, "block")
  ]),
  p("GoDaddy Website Security", "GoDaddy", W("godaddy"), [
    bodyR(/GoDaddy (?:security|website firewall)/i, 0.85)
  ]),
  hosting(p("SiteGround Security", "SiteGround", "https://www.siteground.com/kb/", [
    body(/Our system thinks you might be a robot!|access is restricted due to a security rule/i, 0.85, "challenge"),
    h("x-proxy-cache-info", /./, 0.2)
  ])),
  p("ExpressionEngine", "Packet Tide (EllisLab)", W("expressionengine"), [
    cookie(/^exp_track|^exp_last_/, 0.25),
    bodyR(/Invalid GET Data/, 0.7)
  ]),
  p("DynamicWeb Injection Check", "DynamicWeb", W("dynamicweb"), [
    h("x-403-status-by", /dw.inj.check/i, 0.9),
    bodyR(/by dynamic check(?:.{0,10}module)?/i, 0.7)
  ]),
  p("URLMaster SecurityCheck (DNN)", "iFinity / DotNetNuke", W("urlmaster"), [
    h("x-urlmaster-debug", /./, 0.85),
    h("x-urlmaster-ex", /./, 0.85),
    bodyR(/Ur[li]RewriteModule.{0,200}SecurityCheck/is, 0.7)
  ]),
  p("LiteSpeed WAF", "LiteSpeed Technologies", "https://docs.litespeedtech.com/lsws/cp/cpanel/modsec/", [
    server(/^LiteSpeed$/i, 0.2),
    bodyR(/Proudly powered by LiteSpeed Web Server.{0,400}(?:403 Forbidden|Access to this resource on the server is denied)|(?:403 Forbidden|Access to this resource on the server is denied).{0,400}(?:Proudly powered by LiteSpeed Web Server|www\.litespeedtech\.com\/error-page)/is, 0.6)
  ]),
  p("Barikode", "Ethic Ninja", W("barikode"), [
    bodyR(/<strong>barikode<.strong>/i, 0.9, "block")
  ]),
  p("Shieldon Firewall", "Shieldon.io", "https://shieldon.io/", [
    h("x-protected-by", /shieldon\.io/i, 0.9),
    bodyR(/shieldon_captcha|Please solve CAPTCHA.{0,400}Unusual behavior detected/is, 0.85, "challenge")
  ]),
  p("Anubis (Techaro)", "Techaro", "https://anubis.techaro.lol/docs/", [
    cookie(/-anubis-auth$|^techaro\.lol-anubis/, 0.85, true),
    body(/\/\.within\.website\/x\/cmd\/anubis\/|<script id="anubis_challenge"|<script id="anubis_version"/i, 0.9, "challenge")
  ]),
  hosting(p("Hostinger hPanel Firewall", "Hostinger", "https://www.hostinger.com/", [
    h("platform", /^hostinger$/i, 0.85),
    h("panel", /^hpanel$/i, 0.6)
  ])),
  hosting(p("Kinsta Edge", "Kinsta", "https://kinsta.com/docs/", [
    h("x-kinsta-cache", /./, 0.85),
    h("ki-cache-type", /./, 0.6)
  ])),
  hosting(p("WP Engine Global Edge Security", "WP Engine", "https://wpengine.com/support/", [
    h("x-powered-by", /WP Engine/i, 0.85),
    h("wpe-backend", /./, 0.8)
  ])),
  p("pkSecurity IDS", "pkSec", W("pksec"), [
    bodyR(/pk.?Security.?Module.{0,300}Security.Alert|A safety critical (?:call|request) was (?:detected|discovered) and blocked|maximum number of reloads per minute and prevented access/is, 0.85)
  ])
]
