/**
 * Site builders, blogs, shops and landing-page services (sources and vocabulary: dsl.ts).
 */
import { body, CIAT, code, type Fingerprint, NUCLEI, nx, REAPER, SUBJACK } from "./dsl"

export const SITES: ReadonlyArray<Fingerprint> = [
  body("Ghost", [".ghost.io"], ["Site unavailable.", "Failed to resolve DNS path for this host"], "vulnerable", [CIAT, SUBJACK]),
  body(
    "Shopify",
    [".myshopify.com"],
    ["Sorry, this shop is currently unavailable.", "Sorry, this store is currently unavailable.", "To finish setting up your new web address, go to your domain settings, click \"Connect existing domain\""],
    "edge_case",
    [CIAT, NUCLEI, SUBJACK]
  ),
  body(
    "Tumblr",
    [".tumblr.com"],
    ["Whatever you were looking for doesn't currently exist at this address", "There's nothing here."],
    "edge_case",
    [CIAT, SUBJACK, REAPER]
  ),
  body("WordPress.com", [".wordpress.com"], ["Do you want to register"], "vulnerable", [CIAT, SUBJACK, REAPER]),
  body(
    "Webflow",
    [".proxy.webflow.com", ".proxy-ssl.webflow.com", ".cname.proxy.webflow.com"],
    ["The page you are looking for doesn't exist or has been moved."],
    "edge_case",
    [CIAT, SUBJACK]
  ),
  body("Wix", [".wixdns.net"], ["Looks Like This Domain Isn't Connected To A Website Yet!"], "edge_case", [CIAT]),
  body("Strikingly", [".strikinglydns.com"], ["PAGE NOT FOUND."], "vulnerable", [CIAT, SUBJACK]),
  body(
    "Tilda",
    [".tilda.ws"],
    ["Please go to the site settings and put the domain name in the Domain tab."],
    "edge_case",
    [CIAT, NUCLEI]
  ),
  body("HatenaBlog", [".hatenablog.com"], ["404 Blog is not found"], "vulnerable", [CIAT, SUBJACK]),
  body(
    "Cargo Collective",
    [".cargocollective.com", ".cargo.site"],
    ["404 Not Found"],
    "vulnerable",
    [CIAT, REAPER]
  ),
  nx("SmugMug", [".domains.smugmug.com"], "vulnerable", [CIAT, SUBJACK]),
  body("Anima", [".animaapp.io"], ["The page you were looking for does not exist."], "vulnerable", [CIAT, SUBJACK]),
  body(
    "Worksites",
    [".worksites.net"],
    ["Hello! Sorry, but the website you&rsquo;re looking for doesn&rsquo;t exist."],
    "vulnerable",
    [CIAT, SUBJACK]
  ),
  body("Frontify", [".frontify.com"], ["404 - Not Found - Frontify", "Oops… looks like you got lost"], "edge_case", [CIAT, REAPER]),
  body("Landingi", [".landingi.com"], ["It looks like you’re lost..."], "edge_case", [CIAT]),
  body("Unbounce", [".unbouncepages.com"], ["The requested URL was not found on this server."], "not_vulnerable", [CIAT]),
  body(
    "GetResponse",
    [".gr8.com"],
    ["With GetResponse Landing Pages, lead generation has never been easier", "is no longer available"],
    "vulnerable",
    [CIAT, SUBJACK, REAPER]
  ),
  code("LaunchRock", [".launchrock.com"], 500, "vulnerable", [CIAT]),
  body("Leadpages", [".leadpages.net", ".lpages.co"], ["The page you're looking for may have moved.", "Double check that you have the right web address and give it another go!"], "edge_case", [NUCLEI]),
  body("KickoffLabs", [".kickofflabs.edgeapp.net"], ["Landing Page Not Found"], "edge_case", [SUBJACK]),
  body("Brandpad", [".brandpad.io"], ["is not registered as whitelabel or custom domain."], "vulnerable", [REAPER]),
  body("Big Cartel", [".bigcartel.com"], ["Oops! We could&#8217;t find that page.", "DNS resolution error"], "vulnerable", [SUBJACK, REAPER]),
  body("Brightcove", [".bcvp0rtal.com", ".brightcovegallery.com", ".gallery.video"], ["Page Not Found"], "vulnerable", [REAPER]),
  body("Simplebooklet", [".simplebooklet.com"], ["The link to this Simplebooklet may have changed"], "vulnerable", [REAPER], { schemes: ["https"] }),
  body("Wishpond", [".wishpond.com"], ["https://www.wishpond.com/404?campaign=true"], "vulnerable", [REAPER], { schemes: ["https"] }),
  body("Thinkific", [".thinkific.com"], ["Cloudflare is currently unable to resolve your requested domain"], "vulnerable", [REAPER]),
  body("Feedpress", [".feedpress.me"], ["The feed has not been found."], "not_vulnerable", [CIAT]),
  body("Desk", [".desk.com"], ["Please try again or try Desk.com free for 14 days."], "not_vulnerable", [CIAT]),
  body("HubSpot", [".hubspot.net", ".hs-sites.com"], ["This page isn't available"], "not_vulnerable", [CIAT])
]
