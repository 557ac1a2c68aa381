import { bh, body, bodyR, cookie, h, p, type ProviderEntry, server, status } from "./dsl"

export const BOTS: ReadonlyArray<ProviderEntry> = [
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
    bodyR(/px-captcha|captcha\.px-cdn\.net|window\._pxAppId|client\.perimeterx\.(?:net|com)/i, 0.9, "challenge"),
    bodyR(/perimeterx\.(?:com|net)\/whywasiblocked|denied because we believe you are using automation tools/i, 0.9, "block")
  ]),
  p("Kasada", "Kasada", "https://www.kasada.io/", [
    h("x-kpsdk-ct", /./, 0.85),
    h("x-kpsdk-r", /./, 0.7),
    bodyR(/ips\.js\?.{0,100}KPSDK|window\.KPSDK/is, 0.9, "challenge")
  ]),
  p("Radware Bot Manager (ShieldSquare)", "Radware", "https://www.radware.com/products/bot-manager/", [
    cookie(/^__uzm[abcd]$/, 0.7, true),
    body(/validate\.perfdrive\.com|captcha\.perfdrive\.com/i, 0.9, "challenge")
  ]),
  p("Netacea", "Netacea", "https://docs.netacea.com/", [
    cookie(/^_mitata$|^_mitatacaptcha$/, 0.85, true)
  ])
]
