/**
 * Common subdomain labels checked for every domain (docs/operations/takeover.md): the names
 * most often pointed at hosted services and then forgotten (sites, blogs, shops, help desks,
 * status pages, documentation, marketing pages, mail and CDN endpoints, staging copies).
 */
export const WORDLIST: ReadonlyArray<string> = [
  "www", "mail", "blog", "shop", "store", "docs", "doc", "help", "support", "status",
  "cdn", "static", "assets", "media", "images", "img", "files", "download", "downloads", "api",
  "app", "apps", "dev", "develop", "staging", "stage", "test", "testing", "qa", "uat",
  "demo", "beta", "preview", "sandbox", "old", "new", "web", "portal", "admin", "dashboard",
  "login", "auth", "sso", "account", "accounts", "my", "m", "mobile", "news", "events",
  "careers", "jobs", "about", "info", "community", "forum", "forums", "wiki", "kb", "knowledgebase",
  "faq", "feedback", "ideas", "roadmap", "developer", "developers", "dev-portal", "go", "link", "links",
  "email", "newsletter", "marketing", "promo", "landing", "lp", "pages", "page", "site", "sites",
  "cloud", "s3", "storage", "backup", "git", "gitlab", "jenkins", "ci", "monitor", "monitoring",
  "track", "tracking", "click", "url", "video", "tv", "live", "webinar", "partners", "affiliates",
  "secure", "pay", "payments", "billing", "checkout", "cart", "webmail", "smtp", "autodiscover", "en"
]
