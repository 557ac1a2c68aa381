/**
 * The console's HTML shell and its security headers. The shell holds no inline script or
 * style: everything comes from /console/app.js and /console/app.css under a strict CSP.
 */
export const CONSOLE_PATH = "/console"

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'"
].join("; ")

/** Headers on every /console response. */
export const consoleHeaders = (contentType: string): Record<string, string> => ({
  "content-type": contentType,
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache"
})

export const consoleHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>domain-intel console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CONSOLE_PATH}/app.css">
<script type="module" src="${CONSOLE_PATH}/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div id="app"><main id="main"><p>Loading the console…</p></main></div>
<noscript><p>The console needs JavaScript. Every figure it shows is also available from the API.</p></noscript>
</body>
</html>
`
