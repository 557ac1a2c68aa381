/** Appliance, gateway and network-firewall products beyond those in appliance.ts. */
import { bh, body, bodyR, cookie, h, p, type ProviderEntry, proxy, reason, server, status } from "./dsl"

const W = (plugin: string) => `https://github.com/EnableSecurity/wafw00f/blob/master/wafw00f/plugins/${plugin}.py`

export const ENTERPRISE: ReadonlyArray<ProviderEntry> = [
  proxy(p("F5 BIG-IP Local Traffic Manager", "F5, Inc.", "https://my.f5.com/manage/s/article/K6917", [
    cookie(/^BIGipServer/i, 0.6),
    h("x-cnection", /close/i, 0.6)
  ])),
  proxy(p("F5 BIG-IP Access Policy Manager", "F5, Inc.", "https://my.f5.com/manage/s/article/K15387", [
    cookie(/^MRHSession$|^LastMRH_Session$/, 0.85),
    cookie(/^F5_fullWT$|^F5_HT_shrinked$|^F5_ST$/, 0.7)
  ])),
  proxy(p("F5 FirePass", "F5, Inc.", W("f5firepass"), [
    cookie(/^F5_fire|^F5_passid_shrinked/, 0.85),
    h("location", /\/my\.logon\.php3/i, 0.6)
  ])),
  p("F5 TrafficShield", "F5, Inc.", W("f5trafficshield"), [
    server(/^F5-TrafficShield/i, 0.95),
    cookie(/^ASINFO$/, 0.7)
  ]),
  p("Barracuda NetContinuum", "Barracuda Networks", W("netcontinuum"), [
    cookie(/^NCI__SessionId$/, 0.9)
  ]),
  p("FortiGate", "Fortinet", "https://docs.fortinet.com/document/fortigate/7.4.0/administration-guide/", [
    bodyR(/FortiGate Application Control|\/\/globalurl\.fortinet\.net.{0,800}Web Application Firewall/is, 0.9)
  ]),
  p("FortiGuard IPS", "Fortinet", W("fortiguard"), [
    bodyR(/FortiGuard Intrusion Prevention/i, 0.9)
  ]),
  p("Citrix Teros", "Cloud Software Group (Citrix)", W("teros"), [
    cookie(/^st8id$/, 0.85)
  ]),
  p("Check Point", "Check Point Software", "https://sc1.checkpoint.com/documents/R81/WebAdminGuides/EN/CP_R81_ThreatPrevention_AdminGuide/Topics-TPG/UserCheck.htm", [
    bodyR(/Check Point UserCheck|usercheck\/portal|Check Point Software Technologies.{0,200}(?:blocked|denied)/is, 0.85)
  ]),
  p("open-appsec (Check Point CloudGuard WAF)", "Check Point Software", "https://docs.openappsec.io/getting-started/start-with-linux/configuring-block-page", [
    bodyR(/open-appsec|Attack blocked by web application protection/i, 0.85)
  ]),
  p("Cisco ACE XML Gateway", "Cisco", W("ciscoacexml"), [
    server(/^ACE XML Gateway/i, 0.95)
  ]),
  p("Cisco Umbrella / Secure Web Gateway", "Cisco", "https://docs.umbrella.com/deployment-umbrella/docs/customize-block-pages", [
    bodyR(/block\.opendns\.com|Cisco Umbrella.{0,200}blocked|This site is blocked.{0,300}Umbrella/is, 0.85)
  ]),
  p("Juniper SRX Web Filtering", "Juniper Networks", "https://www.juniper.net/documentation/us/en/software/junos/utm/topics/topic-map/security-web-filtering-overview.html", [
    bodyR(/Juniper Web Filtering has been set to block this site|Juniper Web Filtering.{0,200}CATEGORY:/is, 0.85)
  ]),
  proxy(p("Kemp LoadMaster", "Progress Software", W("kemp"), [
    h("x-servedby", /KEMP-LM/i, 0.9)
  ])),
  p("A10 ThreatX", "A10 Networks", W("threatx"), [
    bodyR(/^Forbidden - ID: [a-f0-9]{32}$/i, 0.85)
  ]),
  p("Array Networks AG", "Array Networks", "https://arraynetworks.com/products-secure-access-gateways-ag-series.html", [
    // The AG gateway serves its portal and refusals under /prx/000/http/ with its an_util script.
    body(/\/prx\/000\/http\/[^"']*|an_util\.js/i, 0.8, "block")
  ]),
  p("SonicWall", "SonicWall", W("sonicwall"), [
    server(/^SonicWALL/i, 0.9),
    body(/<(?:title|h\d)>Web Site Blocked.{0,400}(?:nsa_banner|SonicWall)|nsa_banner/is, 0.85, "block")
  ]),
  p("WatchGuard", "WatchGuard Technologies", W("watchguard"), [
    server(/^WatchGuard/i, 0.9),
    bodyR(/Request denied by WatchGuard Firewall|WatchGuard Technologies Inc\./i, 0.9, "block")
  ]),
  p("Zscaler", "Zscaler", W("zscaler"), [
    server(/^ZScaler/i, 0.9),
    bodyR(/Zscaler to protect you from internet threats|Internet Security by ZScaler|login\.zscloud\.net\/img_logo_new1\.png|Access Denied.{0,10}Accenture Policy|policies\.accenture\.com/i, 0.9, "block")
  ]),
  proxy(p("IBM DataPower", "IBM", "https://www.ibm.com/docs/en/datapower-gateway", [
    h("x-backside-transport", /^(?:OK|FAIL)/i, 0.85)
  ])),
  p("Microsoft ISA / Forefront TMG", "Microsoft", W("isaserver"), [
    bodyR(/The.{0,10}(?:isa.)?server.{0,10}denied the specified Uniform Resource Locator \(URL\)/i, 0.9)
  ]),
  p("Microsoft URLScan", "Microsoft", "https://learn.microsoft.com/en-us/iis/extensions/working-with-urlscan/urlscan-setup", [
    bodyR(/Rejected[-_]By[-_]UrlScan|A custom filter or module.{0,4}such as URLScan/i, 0.9)
  ]),
  p("ASP.NET Request Validation", "Microsoft", "https://learn.microsoft.com/en-us/aspnet/whitepapers/request-validation", [
    bodyR(/A potentially dangerous Request\.(?:QueryString|Form|Path|Cookies) value was detected from the client|HttpRequestValidationException|Request Validation has detected a potentially dangerous client input|ASP\.NET has detected data in the request that is potentially dangerous/i, 0.85)
  ]),
  p("Microsoft IIS Request Filtering", "Microsoft", "https://learn.microsoft.com/en-us/iis/configuration/system.webserver/security/requestfiltering/", [
    bodyR(/HTTP Error 404\.(?:5|6|7|8|11|12|13|14|15|18|19)\b.{0,200}(?:Request Filtering|request filtering module)/is, 0.8)
  ]),
  p("Port80 ServerDefender VP", "Port80 Software", W("serverdefender"), [
    h("x-pint", /p(?:ort-)?80/i, 0.9)
  ]),
  p("Profense", "ArmorLogic", W("profense"), [
    server(/^Profense/i, 0.9),
    cookie(/^PLBSID$/, 0.8)
  ]),
  p("HyperGuard", "Art of Defense", W("hyperguard"), [
    cookie(/^WODSESSION$/, 0.85)
  ]),
  p("eEye SecureIIS", "BeyondTrust", W("secureiis"), [
    bodyR(/SecureIIS is an internet security application|Download SecureIIS Personal Edition|www\.eeye\.com\/Secure-?IIS/i, 0.9, "block")
  ]),
  p("AQTRONIX WebKnight", "AQTRONIX", "https://www.aqtronix.com/?PageID=99", [
    status(/^999$/, 0.6),
    reason(/^(?:No Hacking|Hack Not Found)$/i, 0.9),
    bodyR(/WebKnight Application Firewall Alert|AQTRONIX.{0,10}WebKnight|What is webknight\?|WebKnight will take over and protect|aqtronix\.com\/WebKnight/i, 0.9, "block")
  ]),
  p("dotDefender", "Applicure Technologies", W("dotdefender"), [
    bh("x-dotdefender-denied", /./),
    bodyR(/dotDefender Blocked Your Request|Applicure is the leading provider of web application security/i, 0.9, "block")
  ]),
  p("Approach", "Approach", W("approach"), [
    bodyR(/approach.{0,10}web application (?:firewall|filtering)|approach.{0,10}infrastructure team/i, 0.85, "block")
  ]),
  p("Armor Defense", "Armor", W("armor"), [
    bodyR(/blocked by website protection from armor|please create an armor support ticket/i, 0.9, "block")
  ]),
  p("Alert Logic", "Alert Logic (Fortra)", W("alertlogic"), [
    bodyR(/<(?:title|h\d)>Requested URL cannot be found.{0,600}we are sorry.{0,10}but the page you are looking for cannot be found.{0,600}Reference ID/is, 0.85)
  ]),
  p("Squid Proxy IDS", "Squid Cache", W("squidproxy"), [
    bodyR(/Access control configuration prevents your request from being allowed at this time/i, 0.7),
    h("x-squid-error", /ERR_ACCESS_DENIED/i, 0.85)
  ]),
  p("CacheWall (Varnish)", "Varnish Software", W("cachewall"), [
    h("x-cachewall-action", /./, 0.9),
    h("x-cachewall-reason", /./, 0.9),
    bodyR(/security by cachewall|403 naughty.{0,10}not nice!/i, 0.85, "block")
  ]),
  p("Mission Control Shield", "Mission Control", W("missioncontrol"), [
    server(/^Mission Control Application Shield/i, 0.95)
  ]),
  p("OnMessage Shield (Blackbaud)", "Blackbaud", W("onmessage"), [
    h("x-engine", /onMessage Shield/i, 0.9),
    bodyR(/onMessage SHEILD|maintenance\.blackbaud\.com|status\.blackbaud\.com|Blackbaud K-12 conducts routine maintenance/i, 0.7)
  ]),
  proxy(p("Envoy Proxy", "CNCF Envoy", "https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_conn_man/headers", [
    // A proxy, not a WAF: both facts are needed to report it.
    server(/^envoy$/i, 0.25),
    h("x-envoy-upstream-service-time", /./, 0.25)
  ])),
  p("Symantec / Blue Coat ProxySG", "Broadcom (Symantec)", "https://techdocs.broadcom.com/us/en/symantec-security-software/web-and-network-security/edge-swg.html", [
    server(/^BlueCoat-Security-Appliance|^ProxySG/i, 0.85),
    bodyR(/Blue Coat Systems.{0,200}(?:denied|blocked)|Your request was denied because of its content categorization/is, 0.8)
  ]),
  p("Forcepoint Web Security", "Forcepoint", "https://www.websense.com/content/support/library/web/v85/block_pages/", [
    bodyR(/Forcepoint.{0,100}(?:Access to this web page is restricted|blocked)|websense.{0,100}blocked/is, 0.8)
  ])
]
