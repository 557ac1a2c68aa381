/**
 * HTTP security grade: the MDN HTTP Observatory's ten tests and grade, computed here from what
 * `retrieve` fetched, plus the extras it leaves out. The HSTS preload list is Chromium's
 * (HSTS_PRELOAD_FILE: its transport_security_state_static.json, or the Observatory's own
 * hsts-preload.json); without one, the bundled TLD-wide entries (every name under .app, .dev,
 * .bank, … is preloaded) are all that is known.
 */
import { Config, Context, DateTime, Effect, Layer, Option } from "effect"
import { readFileSync } from "node:fs"
import { InvalidRequest, TargetForbidden, UpstreamUnavailable } from "../../kernel/errors"
import { parseTarget } from "../../adapters/probe/guard"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { parseSecurityTxt, headerExtras } from "./extras"
import { grade, runTests } from "./grade"
import { parsePreloadList, type PreloadList } from "./hsts"
import bundledPreload from "./hsts-preload.json"
import { retrieve, type ScanTarget } from "./retrieve"
import { finalHop, gradedSession, nodeHeaders } from "./retrieval"
import type { SecurityHeadersReport } from "./schema"

/**
 * The hosts to scan from the user's input: a bare name is scanned as the Observatory scans a
 * host (`http://host/` and `https://host/`); a URL also gives the path, and its port for its
 * own scheme (the other scheme keeps its default port).
 */
export const scanTarget = (input: string): (ScanTarget & { readonly inputUrl: string }) | InvalidRequest | TargetForbidden => {
  const parsed = parseTarget(input)
  if (parsed instanceof InvalidRequest || parsed instanceof TargetForbidden) return parsed
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(input.trim())
  const path = explicit ? parsed.url.pathname + parsed.url.search : "/"
  const hostPart = parsed.url.hostname
  const port = parsed.url.port
  const scheme = parsed.url.protocol
  const at = (s: "http:" | "https:") => `${s}//${hostPart}${explicit && port && scheme === s ? `:${port}` : ""}${path}`
  return { host: parsed.host, inputUrl: parsed.url.href, httpUrl: at("http:"), httpsUrl: at("https:") }
}

export class HttpSecurityGrade extends Context.Tag("domain-intel/HttpSecurityGrade")<HttpSecurityGrade, {
  readonly grade: (input: string) => Effect.Effect<SecurityHeadersReport, InvalidRequest | TargetForbidden | UpstreamUnavailable>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const probe = yield* HttpProbe
      const file = yield* Config.string("HSTS_PRELOAD_FILE").pipe(Config.option)
      const preload: PreloadList = Option.isSome(file)
        ? parsePreloadList(readFileSync(file.value, "utf8"))
        : parsePreloadList(JSON.stringify(bundledPreload))

      const run = Effect.fn("HttpSecurityGrade.grade")(function*(input: string) {
        const target = scanTarget(input)
        if (target instanceof InvalidRequest || target instanceof TargetForbidden) return yield* target
        const fetched = yield* retrieve(target).pipe(Effect.provideService(HttpProbe, probe))
        const r = fetched.retrieval
        const page = finalHop(gradedSession(r))
        if (!page) {
          return yield* new UpstreamUnavailable({ message: `${target.host} could not be reached over http or https` })
        }
        // The Observatory grades only pages it may read: 2xx, 3xx, 401 and 403.
        if (page.status < 200 || (page.status >= 400 && page.status !== 401 && page.status !== 403)) {
          return yield* new UpstreamUnavailable({ message: `${page.url} answered HTTP ${page.status}; only 2xx, 3xx, 401 and 403 pages are graded` })
        }
        const graded = grade(runTests(r, preload))
        const now = yield* DateTime.now
        return {
          url: target.inputUrl,
          final_url: page.url,
          ...graded,
          grade: graded.grade as SecurityHeadersReport["grade"],
          extras: {
            ...headerExtras(nodeHeaders(page.rawHeaders)),
            security_txt: parseSecurityTxt(fetched.securityTxtUrl, fetched.securityTxt, new Date(DateTime.toEpochMillis(now)))
          },
          checked_at: DateTime.formatIso(now)
        } satisfies SecurityHeadersReport
      })
      return { grade: run }
    })
  )
}
