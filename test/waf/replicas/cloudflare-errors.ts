/**
 * Cloudflare's own error pages (the cf-error-details template its edge serves, shortened), with
 * the error code in the `cf-error-code` span as the edge writes it, and the plain-text form it
 * sends to clients that do not ask for HTML. The provider's own code decides block_category (1020
 * provider-block, 1009 country-block), whatever the HTTP status (docs/decisions.md, "Content
 * Freshness and WAF Detection").
 */
import type { Replica } from "./kit"

const cfPage = (code: number, ray: string, title: string, headline: string, explanation: string) => `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>${title}</title>
<meta charset="UTF-8" />
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta http-equiv="X-UA-Compatible" content="IE=Edge" />
<meta name="robots" content="noindex, nofollow" />
<meta name="viewport" content="width=device-width,initial-scale=1" />
<link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/cf.errors.css" />
</head>
<body>
  <div id="cf-wrapper">
    <div class="cf-alert cf-alert-error cf-cookie-error" id="cookie-alert" data-translate="enable_cookies">Please enable cookies.</div>
    <div id="cf-error-details" class="cf-error-details-wrapper">
      <div class="cf-wrapper cf-header cf-error-overview">
        <h1>
          <span class="cf-error-type" data-translate="error">Error</span>
          <span class="cf-error-code">${code}</span>
          <small class="heading-ray-id">Ray ID: ${ray} &bull; 2025-06-01 12:00:00 UTC</small>
        </h1>
        <h2 class="cf-subheadline" data-translate="error_desc">${headline}</h2>
      </div>
      <section></section>
      <div class="cf-section cf-wrapper">
        <div class="cf-columns two">
          <div class="cf-column">
            <h2 data-translate="what_happened">What happened?</h2>
            <p>${explanation}</p>
          </div>
        </div>
      </div>
      <div class="cf-error-footer cf-wrapper w-240 lg:w-full py-10 sm:py-4 sm:px-8 mx-auto text-center sm:text-left border-solid border-0 border-t border-gray-300">
        <p class="text-13">
          <span class="cf-footer-item sm:block sm:mb-1">Cloudflare Ray ID: <strong class="font-semibold">${ray}</strong></span>
          <span class="cf-footer-separator sm:hidden">&bull;</span>
          <span id="cf-footer-item-ip" class="cf-footer-item hidden sm:block sm:mb-1">Your IP: <button type="button" id="cf-footer-ip-reveal" class="cf-footer-ip-reveal-btn">Click to reveal</button></span>
          <span class="cf-footer-separator sm:hidden">&bull;</span>
          <span class="cf-footer-item sm:block sm:mb-1"><span>Performance &amp; security by</span> <a rel="noopener noreferrer" href="https://www.cloudflare.com/5xx-error-landing" id="brand_link" target="_blank">Cloudflare</a></span>
        </p>
      </div>
    </div>
  </div>
</body>
</html>`

const restricted = "Access denied | shop.example used Cloudflare to restrict access"
const cf = (ray: string): ReadonlyArray<readonly [string, string]> => [
  ["server", "cloudflare"], ["cf-ray", `${ray}-FRA`], ["content-type", "text/html; charset=UTF-8"],
  ["cache-control", "private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0"],
  ["x-frame-options", "SAMEORIGIN"], ["referrer-policy", "same-origin"]
]

export const CLOUDFLARE_ERROR_REPLICAS: ReadonlyArray<Replica> = [
  {
    id: "cloudflare-1020-page", expect: "Cloudflare", status: 403, expectCategory: "provider-block", expectEnforcement: "low",
    headers: cf("8f0e1d2c3b4a5961"),
    body: cfPage(1020, "8f0e1d2c3b4a5961", restricted, "Access denied", "This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution.")
  },
  {
    // A proxy or Worker in front may rewrite the status: the provider's code still decides.
    id: "cloudflare-1020-page-200", expect: "Cloudflare", status: 200, expectCategory: "provider-block", expectEnforcement: "low",
    headers: cf("8f0e1d2c3b4a5962"),
    body: cfPage(1020, "8f0e1d2c3b4a5962", restricted, "Access denied", "This website is using a security service to protect itself from online attacks.")
  },
  {
    id: "cloudflare-1020-text-200", expect: "Cloudflare", status: 200, expectCategory: "provider-block", expectEnforcement: "low",
    headers: [["server", "cloudflare"], ["cf-ray", "8f0e1d2c3b4a5963-AMS"], ["content-type", "text/plain; charset=UTF-8"]],
    body: "error code: 1020"
  },
  {
    id: "cloudflare-1009-page", expect: "Cloudflare", status: 403, expectCategory: "country-block", expectEnforcement: "low",
    headers: cf("8f0e1d2c3b4a5964"),
    body: cfPage(1009, "8f0e1d2c3b4a5964", restricted, "Access denied", "The owner of this website (shop.example) has banned the country or region your IP address is in (XX) from accessing this website.")
  },
  {
    // 1009 under a status that alone would say rate limit: the code wins.
    id: "cloudflare-1009-page-429", expect: "Cloudflare", status: 429, expectCategory: "country-block", expectEnforcement: "low",
    headers: cf("8f0e1d2c3b4a5965"),
    body: cfPage(1009, "8f0e1d2c3b4a5965", restricted, "Access denied", "The owner of this website (shop.example) has banned the country or region your IP address is in (XX) from accessing this website.")
  },
  {
    id: "cloudflare-1015-page", expect: "Cloudflare", status: 429, expectCategory: "rate-limit", expectEnforcement: "low",
    headers: [...cf("8f0e1d2c3b4a5966"), ["retry-after", "60"]],
    body: cfPage(1015, "8f0e1d2c3b4a5966", restricted, "You are being rate limited", "The owner of this website (shop.example) has banned you temporarily from accessing this website.")
  },
  {
    // 1010: the browser integrity check, a block by the provider's own rule.
    id: "cloudflare-1010-page", expect: "Cloudflare", status: 403, expectCategory: "provider-block", expectEnforcement: "low",
    headers: cf("8f0e1d2c3b4a5967"),
    body: cfPage(1010, "8f0e1d2c3b4a5967", restricted, "Access denied", "The owner of this website (shop.example) has banned your access based on your browser's signature (8f0e1d2c3b4a5967-ua21).")
  },
  {
    // 1006: the site owner banned the client's IP address.
    id: "cloudflare-1006-page", expect: "Cloudflare", status: 403, expectCategory: "provider-block", expectEnforcement: "low",
    headers: cf("8f0e1d2c3b4a5968"),
    body: cfPage(1006, "8f0e1d2c3b4a5968", restricted, "Access denied", "The owner of this website (shop.example) has banned your IP address (192.0.2.1).")
  }
]
