/** Regional clouds and WAF vendors: Russia, Europe, Korea, Japan, India, South-East Asia, Turkey. */
import { body, bodyR, cookie, h, p, type ProviderEntry, reason, server, status } from "./dsl"

const W = (plugin: string) => `https://github.com/EnableSecurity/wafw00f/blob/master/wafw00f/plugins/${plugin}.py`

export const WORLD: ReadonlyArray<ProviderEntry> = [
  p("Yandex Smart Web Security", "Yandex Cloud", "https://yandex.cloud/en/docs/smartwebsecurity/concepts/", [
    server(/^ycalb$/i, 0.6),
    bodyR(/smartcaptcha\.yandexcloud\.net|captcha-api\.yandex\.ru/i, 0.85, "challenge")
  ]),
  p("StormWall", "StormWall", "https://stormwall.pro/", [
    // Its JavaScript challenge loads the solver from static.stormwall.pro (cE / cK variables).
    body(/static\.stormwall\.pro\/[^"']+\.js/i, 0.9, "challenge")
  ]),
  p("Nemesida WAF", "PentestIt (Nemesida)", "https://waf.pentestit.ru/", [
    body(/nemesida(?:-security)?\.com|nwaf@|Suspicious activity detected.{0,10}Access to the site is blocked/i, 0.85, "block"),
    status(/^222$/, 0.3)
  ]),
  p("PT Application Firewall", "Positive Technologies", "https://www.ptsecurity.com/ww-en/products/af/", [
    bodyR(/<h1[^>]{0,10}>\s*Forbidden.{0,400}<pre>Request.ID:.{0,10}\d{4}-(?:\d{2})+.{0,40}<\/pre>/is, 0.85)
  ]),
  p("Airlock (Ergon)", "Ergon Informatik", "https://docs.airlock.com/gateway/latest/", [
    cookie(/^al[_-]?(?:sess|lb)/i, 0.8),
    bodyR(/server detected a syntax error in your request/i, 0.6)
  ]),
  p("NevisProxy (AdNovum)", "AdNovum / Nevis Security", W("nevisproxy"), [
    cookie(/^Navajo|^NP_ID/, 0.85)
  ]),
  p("Secure Entry (USP)", "United Security Providers", W("secureentry"), [
    server(/^Secure Entry Server/i, 0.95)
  ]),
  p("DenyAll (R&S WAF)", "Rohde & Schwarz Cybersecurity", W("denyall"), [
    // Its refusal is the reason phrase "Condition Intercepted" (status 200); some pages repeat it.
    reason(/^Condition Intercepted$/i, 0.9),
    bodyR(/Condition Intercepted/i, 0.85)
  ]),
  p("R&S Cloud Protector", "Rohde & Schwarz Cybersecurity", W("cloudprotector"), [
    body(/Cloud Protector.{0,200}by Rohde.{3,8}Schwarz Cybersecurity|cloudprotector\.com\/'>R.{1,6}S.Cloud Protector/is, 0.9, "block")
  ]),
  p("Grey Wizard", "Grey Wizard", W("greywizard"), [
    server(/^greywizard/i, 0.9),
    body(/<(?:title|h\d)>Grey Wizard|contact the website owner or Grey Wizard/i, 0.9, "block"),
    bodyR(/We.ve detected attempted attack or non standard traffic from your ip address/i, 0.85, "block")
  ]),
  p("PentaWAF / WAPPLES", "Penta Security", "https://www.pentasecurity.com/product/wapples/", [
    server(/PentaWaf/i, 0.9),
    bodyR(/Penta.?Waf\/[0-9.]+.server|WAPPLES/i, 0.85)
  ]),
  p("Scutum", "Secure Sky Technology", W("scutum"), [
    server(/^Scutum$/i, 0.95)
  ]),
  p("SiteGuard", "EG Secure Solutions", "https://www.eg-secure.co.jp/siteguard/", [
    bodyR(/Powered by SiteGuard|The server refuse to browse the page/i, 0.9)
  ]),
  p("Indusface AppTrana", "Indusface", "https://www.indusface.com/apptrana/", [
    server(/IF_WAF/i, 0.9),
    bodyR(/This website is secured against online attacks\. Your request was blocked/i, 0.9)
  ]),
  p("Viettel Cloudrity", "Viettel", W("viettel"), [
    bodyR(/Access Denied.{0,10}Viettel WAF|Viettel WAF System|cloudrity\.com\.vn\//i, 0.9, "block")
  ]),
  p("Bekchy", "Faydata Technologies", W("bekchy"), [
    bodyR(/Bekchy.{0,10}Access Denied|bekchy\.com\/report/i, 0.9, "block")
  ]),
  p("ASPA Firewall", "ASPA Engineering", W("aspa"), [
    server(/ASPA[-_]?WAF/i, 0.9),
    h("aspa-cache-status", /./, 0.85)
  ]),
  p("NullDDoS", "NullDDoS", W("nullddos"), [
    server(/^NullDDoS/i, 0.95)
  ]),
  p("Webland", "WebLand", W("webland"), [
    server(/protected by webland/i, 0.95)
  ]),
  p("XLabs Security WAF", "XLabs", W("xlabssecuritywaf"), [
    h("x-cdn", /XLabs Security/i, 0.9),
    h("secured", /^By XLabs Security/i, 0.9),
    server(/XLabs[-_]?.?WAF/i, 0.9)
  ]),
  p("Baffin Bay (Mastercard)", "Mastercard", W("baffinbay"), [
    server(/^baffin-bay-inlet$/i, 0.95)
  ]),
  p("Sabre Firewall", "Sabre", W("sabre"), [
    body(/dxsupport\.sabre\.com/i, 0.85, "block"),
    bodyR(/<title>Application Firewall Error.{0,600}add some important details to the email for us to investigate/is, 0.9)
  ])
]
