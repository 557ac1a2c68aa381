/**
 * Help desks, documentation, status pages, forms and other hosted services that serve a
 * customer's name (sources and vocabulary: dsl.ts).
 */
import { body, CIAT, code, type Fingerprint, NUCLEI, nx, REAPER, SUBJACK } from "./dsl"

export const SAAS: ReadonlyArray<Fingerprint> = [
  body(
    "Read the Docs",
    [".readthedocs.io", ".readthedocs.org"],
    ["The link you have followed or the URL that you entered does not exist.", "unknown to Read the Docs"],
    "vulnerable",
    [CIAT, NUCLEI]
  ),
  body("Readme.io", [".readme.io", ".readmessl.com"], ["The creators of this project are still working on making everything perfect!"], "vulnerable", [CIAT, SUBJACK]),
  body("Zendesk", [".zendesk.com"], ["Help Center Closed", "this help center no longer exists"], "not_vulnerable", [CIAT, NUCLEI]),
  body("Freshdesk", [".freshdesk.com", ".freshservice.com"], ["Maybe this is still fresh!"], "not_vulnerable", [CIAT]),
  body("Help Scout", [".helpscoutdocs.com"], ["No settings were found for this company:"], "vulnerable", [CIAT, SUBJACK]),
  body("Help Juice", [".helpjuice.com"], ["We could not find what you're looking for."], "vulnerable", [CIAT, SUBJACK]),
  code("Helprace", [".helprace.com"], 301, "vulnerable", [CIAT]),
  body("HelpDocs", [".helpdocs.io"], ["You've tried to access an account/page that does not exist"], "edge_case", [NUCLEI]),
  body("Intercom", [".custom.intercom.help"], ["This page is reserved for artistic dogs.", "Uh oh. That page doesn't exist."], "edge_case", [CIAT, NUCLEI, SUBJACK]),
  body("JetBrains YouTrack", [".youtrack.cloud", ".myjetbrains.com"], ["is not a registered InCloud YouTrack"], "vulnerable", [CIAT, SUBJACK]),
  body("UserVoice", [".uservoice.com"], ["This UserVoice subdomain is currently available!"], "not_vulnerable", [CIAT, NUCLEI]),
  body("Uberflip", [".read.uberflip.com"], ["The URL you've accessed does not provide a hub."], "vulnerable", [CIAT, SUBJACK]),
  body("UptimeRobot", [".stats.uptimerobot.com"], ["page not found"], "vulnerable", [CIAT, SUBJACK]),
  body("Pingdom", [".stats.pingdom.com"], ["Sorry, couldn't find the status page"], "vulnerable", [CIAT, SUBJACK]),
  body("SurveySparrow", [".surveysparrow.com"], ["Account not found.", "<title>DNS resolution error"], "vulnerable", [CIAT, SUBJACK, REAPER]),
  body("Agile CRM", [".agilecrm.com"], ["Sorry, this page is no longer available.", "No landing page found."], "vulnerable", [CIAT, SUBJACK, REAPER]),
  body(
    "Campaign Monitor",
    [".createsend.com", ".campaignmonitor.com"],
    ["Trying to access your account?", "Double check the URL or <a href=\"mailto:help@createsend.com", "WHOOPS! The page you're looking for does not exist."],
    "vulnerable",
    [CIAT, SUBJACK, REAPER]
  ),
  body("Canny", [".canny.io"], ["Company Not Found", "There is no such company. Did you enter the right URL?"], "vulnerable", [CIAT, SUBJACK]),
  nx("Discourse", [".trydiscourse.com"], "vulnerable", [CIAT, SUBJACK]),
  body("Short.io", [".short.io"], ["Link does not exist", "This domain is not configured on Short.io."], "vulnerable", [CIAT, REAPER]),
  body(
    "SmartJobBoard",
    [".mysmartjobboard.com"],
    ["This job board website is either expired or its domain name is invalid.", "Job Board Is Unavailable"],
    "vulnerable",
    [CIAT, REAPER]
  ),
  body("Smartling", [".smartling.com"], ["Domain is not configured"], "edge_case", [CIAT]),
  body("Mashery", [".mashery.com"], ["Unrecognized domain"], "edge_case", [CIAT, REAPER]),
  body("Aha!", [".aha.io"], ["invalid-portal"], "vulnerable", [REAPER]),
  body("GitBook", [".gitbook.io"], ["If you need specifics, here's the error"], "edge_case", [NUCLEI]),
  body("JazzHR", [".applytojob.com"], ["This account no longer active"], "edge_case", [NUCLEI]),
  body("Lemlist", [".custom.lemlist.com"], ["Custom domain check"], "edge_case", [NUCLEI]),
  body("Wufoo", [".wufoo.com"], ["Profile not found"], "edge_case", [NUCLEI]),
  code("Zoho Forms", [".forms.cs.zohohost.com", ".forms.cs.zohohost.eu"], 400, "vulnerable", [REAPER]),
  code("Bettermode", [".domains.bettermode.io"], 409, "vulnerable", [REAPER])
]
