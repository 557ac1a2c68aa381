/**
 * Fuzzers that change the shape of the name rather than one label: dnstwist's `various`, and
 * our own `plural` and `tld-swap` (docs/operations/lookalikes.md). Each takes the split name
 * and gives whole names (the caller encodes and checks them).
 */

/** A name cut where the public suffix list cuts it: `www` + `example` + `co.uk`. */
export interface Split {
  /** Labels left of the registrable one ("" when none). */
  readonly subdomain: string
  /** The registrable label, in Unicode for an internationalized name. */
  readonly label: string
  /** The public suffix: `com`, `co.uk`. */
  readonly suffix: string
}

/** Joins the non-empty parts with dots (an empty part leaves no empty label). */
export const joinName = (...parts: ReadonlyArray<string>): string => parts.filter((p) => p !== "").join(".")

/**
 * dnstwist's `various`: the suffix written into the label (`examplecom.com`, `exampleco.uk`),
 * a two-label suffix cut to its last label (`example.uk`), the suffix as a hyphenated word under
 * `.com` (`example-org.com`), and the subdomain written into the label (`wwwexample.com`,
 * `www-example.com`).
 */
export function* various({ label, subdomain, suffix }: Split): Iterable<string> {
  if (suffix.includes(".")) {
    yield joinName(subdomain, label, suffix.split(".").at(-1)!)
    yield joinName(subdomain, label + suffix)
  } else {
    yield joinName(subdomain, label + suffix, suffix)
    if (suffix !== "com") yield joinName(subdomain, `${label}-${suffix}`, "com")
  }
  if (subdomain !== "") {
    yield [subdomain + label, suffix].join(".")
    yield [subdomain.replaceAll(".", "") + label, suffix].join(".")
    yield [`${subdomain}-${label}`, suffix].join(".")
    yield [`${subdomain.replaceAll(".", "-")}-${label}`, suffix].join(".")
  }
}

/**
 * The label's English plural, or its singular when it already reads as a plural: `+s`, `+es`
 * after s, x, z, ch or sh, consonant + `y` → `ies`, and the way back. Most one-letter changes
 * are also typos that dnstwist's fuzzers claim first; what is left are the two-letter ones
 * (`city` → `cities`, `boxes` → `box`).
 */
export function* plural({ label, subdomain, suffix }: Split): Iterable<string> {
  let form: string
  if (/[^aeiou]ies$/.test(label)) form = label.slice(0, -3) + "y"
  else if (/(s|x|z|ch|sh)es$/.test(label)) form = label.slice(0, -2)
  else if (/[^s]s$/.test(label)) form = label.slice(0, -1)
  else if (/(s|x|z|ch|sh)$/.test(label)) form = label + "es"
  else if (/[^aeiou]y$/.test(label)) form = label.slice(0, -1) + "ies"
  else form = label + "s"
  yield joinName(subdomain, form, suffix)
}

/**
 * Popular top-level domains and two-label public suffixes for `tld-swap`: the generic names most
 * registered (com, net, org, …), the newer ones phishing favours (xyz, top, online, site, …) and
 * the largest country codes, about thirty in all.
 */
export const POPULAR_SUFFIXES: ReadonlyArray<string> = [
  "com", "net", "org", "info", "co", "io", "ai", "app", "dev", "xyz", "top", "online", "site", "shop",
  "me", "us", "uk", "co.uk", "de", "fr", "nl", "eu", "ru", "cn", "in", "br", "com.br", "au", "com.au", "ca", "es", "it"
]

/** The same label under another popular suffix. */
export function* tldSwap({ label, subdomain, suffix }: Split): Iterable<string> {
  for (const other of POPULAR_SUFFIXES) if (other !== suffix) yield joinName(subdomain, label, other)
}
