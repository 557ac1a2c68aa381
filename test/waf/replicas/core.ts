/** The first replicas: the large clouds and the vendors the service knew first. */
import { html, page, type Replica } from "./kit"

export const CORE: ReadonlyArray<Replica> = [
  {
    id: "cloudflare-pass", expect: "Cloudflare", status: 200, expectCategory: "none", expectEnforcement: "medium",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6789-FRA"], ["cf-cache-status", "DYNAMIC"], ["set-cookie", "__cf_bm=Xy1.abc-1700000000-1.0.1.1-AbC; path=/; expires=Wed, 22-Nov-26 05:00:00 GMT; domain=.example.com; HttpOnly; Secure; SameSite=None"]],
    body: page
  },
  {
    id: "cloudflare-challenge", expect: "Cloudflare", status: 403, expectCategory: "waf-block", expectEnforcement: "high",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6790-AMS"], ["cf-mitigated", "challenge"], ["content-type", "text/html; charset=UTF-8"], ["cache-control", "private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0"]],
    body: html("Just a moment...", `<noscript>Enable JavaScript and cookies to continue</noscript><script>(function(){window._cf_chl_opt={cvId: '3',cZone: "example.com",cType: 'managed'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b2c3d4e5f6790';document.head.appendChild(a);}());</script>`)
  },
  {
    id: "cloudflare-1020", expect: "Cloudflare", status: 403, expectCategory: "provider-block", expectEnforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6791-LHR"], ["content-type", "text/plain; charset=UTF-8"]],
    body: "error code: 1020"
  },
  {
    id: "cloudflare-1009", expect: "Cloudflare", status: 403, expectCategory: "country-block", expectEnforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6792-SIN"], ["content-type", "text/html; charset=UTF-8"]],
    body: html("Access denied | example.com used Cloudflare to restrict access", `<div class="cf-error-details"><h1>Error 1009</h1><h2>Access denied</h2><p>The owner of this website (example.com) has banned the country or region your IP address is in (XX) from accessing this website.</p></div><span>Cloudflare Ray ID: 8a1b2c3d4e5f6792</span>`)
  },
  {
    id: "cloudflare-1015", expect: "Cloudflare", status: 429, expectCategory: "rate-limit", expectEnforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6793-CDG"], ["retry-after", "60"]],
    body: html("Access denied | example.com used Cloudflare to restrict access", `<div class="cf-error-details"><h1>Error 1015</h1><h2>You are being rate limited</h2></div>`)
  },
  {
    // Cloudflare's WAF block page shares wording with other vendors' pages: only Cloudflare is named.
    id: "cloudflare-block-page", expect: "Cloudflare", status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6797-FRA"], ["content-type", "text/html; charset=UTF-8"]],
    body: html("Attention Required! | Cloudflare", `<div id="cf-wrapper"><div id="cf-error-details" class="cf-error-details-wrapper"><h1 data-translate="block_headline">Sorry, you have been blocked</h1><h2 class="cf-subheadline">You are unable to access example.com</h2><h2 data-translate="blocked_why_headline">Why have I been blocked?</h2><p data-translate="blocked_why_detail">This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution. There are several actions that could trigger this block including submitting a certain word or phrase, a SQL command or malformed data.</p><span>Cloudflare Ray ID: <strong>8a1b2c3d4e5f6797</strong></span><span>Performance &amp; security by Cloudflare</span></div></div>`)
  },
  {
    id: "akamai-block", expect: "Akamai", status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["server", "AkamaiGHost"], ["mime-version", "1.0"], ["content-type", "text/html"], ["expires", "Sun, 22 Nov 2026 04:00:00 GMT"]],
    body: `<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don't have permission to access "http&#58;&#47;&#47;www&#46;example&#46;com&#47;" on this server.<P>\nReference&#32;&#35;18&#46;2f1e4817&#46;1700000000&#46;5a3b2c1\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f1e4817&#46;1700000000&#46;5a3b2c1</P>\n</BODY>\n</HTML>`
  },
  {
    id: "akamai-pass", expect: "Akamai", status: 200, expectEnforcement: "medium",
    headers: [["server", "AkamaiGHost"], ["akamai-grn", "0.2f1e4817.1700000000.5a3b2c1"], ["set-cookie", "ak_bmsc=3F2A1B...~000000000000000000000000000000~YAAQ; Domain=.example.com; Path=/; Expires=Sun, 22 Nov 2026 06:00:00 GMT; Max-Age=7200; HttpOnly"]],
    body: page
  },
  {
    id: "imperva", expect: "Imperva Incapsula", status: 200, expectEnforcement: "low",
    headers: [["x-cdn", "Imperva"], ["x-iinfo", "12-34567890-0 0NNN RT(1700000000000 0) q(0 0 0 -1) r(0 0) U6"], ["set-cookie", "visid_incap_2345678=AbCdEf==; expires=Mon, 22 Nov 2027 04:00:00 GMT; HttpOnly; path=/; Domain=.example.com; Secure; SameSite=None"], ["set-cookie", "incap_ses_1234_2345678=GhIjKl==; path=/; Domain=.example.com; Secure; SameSite=None"]],
    body: page
  },
  {
    id: "imperva-block", expect: "Imperva Incapsula", status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["x-cdn", "Imperva"], ["x-iinfo", "9-87654321-0 0NNN RT(1700000000000 1) q(0 -1 -1 -1) r(0 -1) B10(4,314,0) U18"]],
    body: `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"></head><body><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=23&xinfo=9-87654321-0&incident_id=1234000000000000000-567890123456789012&edet=12" frameborder=0>Request unsuccessful. Incapsula incident ID: 1234000000000000000-567890123456789012</iframe></body></html>`
  },
  {
    id: "aws-waf-captcha", expect: "AWS WAF", status: 405, expectCategory: "custom-block", expectEnforcement: "high",
    headers: [["x-amzn-waf-action", "captcha"], ["content-type", "text/html; charset=utf-8"], ["cache-control", "no-store, max-age=0"]],
    body: html("", `<div id="captcha-container"></div><script src="https://abc123.edge.sdk.awswaf.com/abc123/def456/captcha.js"></script><script>AwsWafIntegration.saveReferrer();</script>`)
  },
  {
    id: "cloudfront-block", expect: "Amazon CloudFront", status: 403, expectCategory: "waf-block", expectEnforcement: "low", alsoReported: ["AWS WAF"],
    headers: [["server", "CloudFront"], ["x-cache", "Error from cloudfront"], ["via", "1.1 0a1b2c3d4e5f.cloudfront.net (CloudFront)"], ["x-amz-cf-pop", "FRA56-P1"], ["x-amz-cf-id", "AbCdEf0123456789-xyz=="]],
    body: `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><HTML><HEAD><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1"><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The request could not be satisfied.</H2><HR noshade size="1px">Request blocked.\nWe can't connect to the server for this app or website at this time.<BR clear="all"><HR noshade size="1px"><PRE>Generated by cloudfront (CloudFront)\nRequest ID: AbCdEf0123456789-xyz==</PRE><ADDRESS></ADDRESS></BODY></HTML>`
  },
  {
    id: "azure-front-door", expect: "Azure Front Door", status: 200, expectEnforcement: "low",
    headers: [["x-azure-ref", "20261122T040000Z-16f5b7c8d9e0f1a2b3c4d5e6f7g8h9i0j"], ["x-cache", "TCP_MISS"]],
    body: page
  },
  {
    id: "azure-app-gateway", expect: "Azure Application Gateway", status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["server", "Microsoft-Azure-Application-Gateway/v2"], ["content-type", "text/html"]],
    body: `<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>Microsoft-Azure-Application-Gateway/v2</center>\r\n</body>\r\n</html>`
  },
  {
    id: "google-cloud-armor", expect: "Google Cloud Armor", status: 200, expectEnforcement: "medium",
    headers: [["via", "1.1 google"], ["set-cookie", "recaptcha-ca-t=AbCdEfGh:1700000000; Path=/; Secure; HttpOnly"]],
    body: page
  },
  {
    id: "fastly", expect: "Fastly", status: 200, expectEnforcement: "low",
    headers: [["via", "1.1 varnish"], ["x-served-by", "cache-fra-eddf8230123-FRA"], ["x-cache", "MISS"], ["x-cache-hits", "0"], ["x-timer", "S1700000000.123456,VS0,VE12"], ["x-fastly-request-id", "0123456789abcdef0123456789abcdef01234567"]],
    body: page
  },
  {
    id: "sucuri-block", expect: "Sucuri", status: 403, expectCategory: "waf-block", expectEnforcement: "high",
    headers: [["server", "Sucuri/Cloudproxy"], ["x-sucuri-id", "11005"], ["x-sucuri-block", "BGP11"], ["content-type", "text/html"]],
    body: html("Sucuri WebSite Firewall - Access Denied", `<h2>Access Denied - Sucuri Website Firewall</h2><table><tr><td>Block reason:</td><td>An attempted XSS (Cross Site Scripting) was detected and blocked.</td></tr></table><p>If you are the site owner, contact cloudproxy@sucuri.net</p>`)
  },
  {
    id: "sucuri-country", expect: "Sucuri", status: 403, expectCategory: "country-block", expectEnforcement: "low",
    headers: [["server", "Sucuri/Cloudproxy"], ["x-sucuri-id", "15015"]],
    body: html("Sucuri WebSite Firewall - Access Denied", `<h2>Access Denied - Sucuri Website Firewall</h2><td>Block reason:</td><td>Access from your Country was disabled by the administrator.</td>`)
  },
  {
    id: "f5-asm", expect: "F5 BIG-IP ASM / Advanced WAF", status: 200, expectCategory: "custom-block", expectEnforcement: "low",
    headers: [["set-cookie", "TS01a2b3c4=01abcdef0123456789; Path=/"], ["cache-control", "no-cache"], ["pragma", "no-cache"], ["connection", "close"]],
    body: `<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 1234567890123456789<br><br><a href='javascript:history.back();'>[Go Back]</a></body></html>`
  },
  {
    id: "barracuda", expect: "Barracuda WAF", status: 200, expectEnforcement: "low",
    headers: [["set-cookie", "barra_counter_session=12345678901234567890/1700000000; path=/; Secure"], ["set-cookie", "BNI__BARRACUDA_LB_COOKIE=0000000000000000000000000000000000000000; Path=/; Max-age=3600; HttpOnly"]],
    body: page
  },
  {
    id: "fortiweb", expect: "FortiWeb", status: 200, expectEnforcement: "low",
    headers: [["set-cookie", "FORTIWAFSID=ABCDEF0123456789; path=/; HttpOnly"]],
    body: page
  },
  {
    id: "citrix-netscaler", expect: "Citrix NetScaler AppFirewall", status: 200, expectEnforcement: "low",
    headers: [["via", "NS-CACHE-10.0: 1"], ["set-cookie", "citrix_ns_id=AbCdEf0123456789; Domain=.example.com; Path=/; HttpOnly"], ["cneonction", "close"]],
    body: page
  },
  {
    id: "radware", expect: "Radware AppWall / Cloud WAF", status: 200, expectCategory: "custom-block", expectEnforcement: "low",
    headers: [["x-sl-compstate", "Blocked"]],
    body: html("Unauthorized Request Blocked", `<p>Unauthorized Activity Has Been Detected.</p><p>Case Number: 1234567890123456</p>`)
  },
  {
    id: "reblaze", expect: "Reblaze", status: 200, expectEnforcement: "medium",
    headers: [["server", "Reblaze Secure Web Gateway"], ["set-cookie", "rbzid=AbCdEf0123456789==; Path=/; HttpOnly"]],
    body: page
  },
  {
    id: "stackpath", expect: "StackPath", status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["server", "StackPath"], ["x-sp-url", "https://www.example.com/"], ["x-sp-waf", "blocked"]],
    body: html("StackPath", `<h1>Sorry, you have been blocked</h1><p>You performed an action that triggered the service and blocked your request.</p>`)
  },
  {
    id: "ddos-guard", expect: "DDoS-Guard", status: 403, expectCategory: "waf-block", expectEnforcement: "medium",
    headers: [["server", "ddos-guard"], ["set-cookie", "__ddg1_=AbCdEf0123456789; Domain=.example.com; HttpOnly; Path=/; Expires=Mon, 22-Nov-2027 04:00:00 GMT"]],
    body: html("DDoS-Guard", `<div>Checking your browser before accessing the website. <script src="https://check.ddos-guard.net/check.js"></script></div>`)
  },
  {
    id: "wordfence", expect: "Wordfence", status: 503, expectCategory: "custom-block", expectEnforcement: "low",
    headers: [["content-type", "text/html; charset=UTF-8"], ["cache-control", "no-cache, must-revalidate, max-age=0"]],
    body: html("", `<h1>Your access to this site has been limited by the site owner</h1><p>If you think you have been blocked in error, contact the owner of this site for assistance.</p><p class="generated">Generated by Wordfence at Sun, 22 Nov 2026 4:00:00 GMT.<br>Your computer's time: <script>document.write(Date());</script>.</p>`)
  },
  {
    id: "modsecurity", expect: "ModSecurity", status: 406, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["server", "Apache"], ["content-type", "text/html; charset=iso-8859-1"]],
    body: `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>406 Not Acceptable</title>\n</head><body>\n<h1>Not Acceptable!</h1><p>An appropriate representation of the requested resource could not be found on this server. This error was generated by Mod_Security.</p></body></html>`
  },
  {
    id: "wallarm", expect: "Wallarm", status: 200, expectEnforcement: "low",
    headers: [["server", "nginx-wallarm"]],
    body: page
  },
  {
    id: "edgecast", expect: "Edgecast (Edgio)", status: 200, expectEnforcement: "low",
    headers: [["server", "ECAcc (fra/2C1D)"], ["x-cache", "HIT"]],
    body: page
  },
  {
    id: "alibaba", expect: "Alibaba Cloud WAF", status: 405, expectCategory: "custom-block", expectEnforcement: "low",
    headers: [["set-cookie", "aliyungf_tc=AbCdEf0123456789; Path=/; HttpOnly"], ["set-cookie", "acw_tc=0123456789abcdef;path=/;HttpOnly;Max-Age=1800"]],
    body: html("405", `<p>Sorry, your request has been blocked as it may cause potential threats to the server's security.</p><img src="https://errors.aliyun.com/images/TB15QGaHpXXXXXXaXXXXXXXXXXX-58-58.png">`)
  },
  {
    id: "tencent", expect: "Tencent Cloud WAF", status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["content-type", "text/html"]],
    body: html("501", `<p>您的访问请求可能对网站造成安全威胁，请求已被腾讯云 Web 应用防火墙拦截。</p><a href="https://waf.tencent-cloud.com/">waf.tencent-cloud.com</a>`)
  },
  {
    id: "baidu", expect: "Baidu Yunjiasu", status: 200, expectEnforcement: "low",
    headers: [["server", "yunjiasu-nginx"]],
    body: page
  },
  {
    id: "datadome-captcha", expect: "DataDome", status: 403, expectCategory: "waf-block", expectEnforcement: "medium",
    headers: [["server", "DataDome"], ["x-datadome", "protected"], ["x-dd-b", "1"], ["set-cookie", "datadome=AbCdEf~0123456789; Max-Age=31536000; Domain=.example.com; Path=/; Secure; SameSite=Lax"]],
    body: html("example.com", `<script>var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'0123','t':'fe','s':1,'host':'geo.captcha-delivery.com'}</script><script src="https://ct.captcha-delivery.com/c.js"></script>`)
  },
  {
    id: "vercel-challenge", expect: "Vercel Firewall", status: 429, expectCategory: "rate-limit", expectEnforcement: "high",
    headers: [["server", "Vercel"], ["x-vercel-id", "fra1::abcde-1700000000000-0123456789ab"], ["x-vercel-mitigated", "challenge"]],
    body: html("Vercel Security Checkpoint", "<p>We're verifying your browser</p>")
  },
  {
    // Cloudflare injects its bot-detection script from the challenge-platform path into ordinary pages.
    id: "cloudflare-jsd", expect: "Cloudflare", status: 200, expectCategory: "none", expectEnforcement: "medium",
    headers: [["server", "cloudflare"], ["cf-ray", "8a1b2c3d4e5f6795-FRA"], ["set-cookie", "__cf_bm=Zz.1700000000-1.0.1.1-q; path=/; HttpOnly; Secure"]],
    body: html("Shop", `<p>Products</p><script>(function(){var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';document.body.appendChild(a)})();</script>`)
  },
  {
    // A plain blog that writes about WAF errors: quoted error pages are not evidence.
    id: "blog-about-wafs", expect: null, status: 200, expectCategory: "none", expectEnforcement: "low",
    headers: [["server", "Apache"], ["content-type", "text/html"]],
    body: html("Fixing Cloudflare error 1020", `<p>If you see "error code: 1020" or "Error 1009 … has banned the country or region", or a page saying "This error was generated by Mod_Security", or "Generated by Wordfence", read on.</p><script>window._pxAppId='PXabc';</script>`)
  },
  {
    id: "plain-origin", expect: null, status: 200, expectCategory: "none", expectEnforcement: "low",
    headers: [["server", "nginx/1.24.0"], ["content-type", "text/html; charset=utf-8"], ["set-cookie", "PHPSESSID=abc123; path=/"], ["x-powered-by", "PHP/8.2.12"], ["cache-control", "no-cache"]],
    body: html("Welcome to nginx!", "<h1>Welcome to nginx!</h1><p>If you see this page, the nginx web server is successfully installed.</p><p>Just a moment, we are updating the menu.</p>")
  },
  {
    id: "plain-403", expect: null, status: 403, expectCategory: "waf-block", expectEnforcement: "low",
    headers: [["server", "Apache"], ["content-type", "text/html; charset=iso-8859-1"]],
    body: `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>403 Forbidden</title>\n</head><body>\n<h1>Forbidden</h1>\n<p>You don't have permission to access this resource.</p>\n</body></html>`
  }
]

