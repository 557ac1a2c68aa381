/**
 * RDAP lookups for whois_lookup: the TLD's server from the IANA bootstrap file
 * (RDAP_BOOTSTRAP_URL, refreshed daily and cached; the bundled copy when it cannot be fetched),
 * the registry's domain object, then the registrar's through the registry's referral link.
 * All fetches go through the target guard.
 */
import { Clock, Context, Effect, Layer, Option, Ref } from "effect"
import { getDomain } from "../../kernel/publicSuffix"
import { AppConfig } from "../../platform/Config"
import { ToolFailure } from "../../kernel/ToolFailure"
import { NotFound } from "../../kernel/errors"
import { Outbound } from "../probe/Outbound"
import {
  type Bootstrap,
  domainQueryUrl,
  extractDomain,
  findRdapBase,
  mergeFacts,
  parseBootstrap,
  type RdapFacts,
  type WhoisReport
} from "./rdapData"

/** A fetched bootstrap file is reused this long. */
export const BOOTSTRAP_TTL_MS = 24 * 3600 * 1000
/** After a failed fetch the bundled copy is used and the fetch retried after this long. */
export const BOOTSTRAP_RETRY_MS = 5 * 60 * 1000

const RDAP_TIMEOUT_MS = 8000
const RDAP_MAX_BYTES = 2 * 1024 * 1024

/**
 * The bundled IANA file (65 kB of JSON), read and parsed when a lookup first needs it rather
 * than at start (docs/operating.md, "The binary"); `require` of a JSON file is bundled into the
 * binary and evaluated at that call.
 */
let bundledCache: Bootstrap | undefined
const bundledBootstrap = (): Bootstrap => (bundledCache ??= parseBootstrap(require("./rdap-bootstrap.json")))

interface BootstrapState {
  readonly bootstrap: Bootstrap
  readonly source: "fetched" | "bundled"
  readonly until: number
}

export class Rdap extends Context.Tag("domain-intel/Rdap")<Rdap, {
  readonly lookup: (domain: string) => Effect.Effect<WhoisReport, ToolFailure>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const outbound = yield* Outbound
      const state = yield* Ref.make<BootstrapState | undefined>(undefined)
      const lock = yield* Effect.makeSemaphore(1)

      const getJson = (url: string) =>
        outbound.fetch({
          url,
          headers: [["Accept", "application/rdap+json, application/json"]],
          timeoutMs: RDAP_TIMEOUT_MS,
          maxBodyBytes: RDAP_MAX_BYTES,
          maxRedirects: 3
        }).pipe(
          Effect.mapError((e) => new ToolFailure({ message: e.message })),
          Effect.flatMap((res) => {
            if (res.status === 404) return Effect.fail(new ToolFailure({ message: `${url}: not found (404)` }))
            if (res.status < 200 || res.status >= 300) {
              return Effect.fail(new ToolFailure({ message: `${url}: HTTP ${res.status}` }))
            }
            return Effect.try({
              try: () => JSON.parse(res.body.toString("utf8")) as unknown,
              catch: () => new ToolFailure({ message: `${url}: the answer is not JSON` })
            })
          })
        )

      /** The bootstrap to use now, and where it came from. */
      const bootstrap = lock.withPermits(1)(
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const current = yield* Ref.get(state)
          if (current && now < current.until) {
            return { bootstrap: current.bootstrap, source: current.source === "fetched" ? "cached" as const : "bundled" as const }
          }
          const fetched = yield* getJson(config.rdapBootstrapUrl).pipe(
            Effect.flatMap((doc) => Effect.try({ try: () => parseBootstrap(doc), catch: (e) => new ToolFailure({ message: String((e as Error).message) }) })),
            Effect.option
          )
          if (Option.isSome(fetched)) {
            yield* Ref.set(state, { bootstrap: fetched.value, source: "fetched", until: now + BOOTSTRAP_TTL_MS } as BootstrapState)
            return { bootstrap: fetched.value, source: "fetched" as const }
          }
          // Keep a previously fetched copy over the bundled one, but retry soon.
          const fallback = current?.source === "fetched" ? current.bootstrap : bundledBootstrap()
          const kept: BootstrapState = { bootstrap: fallback, source: current?.source === "fetched" ? "fetched" : "bundled", until: now + BOOTSTRAP_RETRY_MS }
          yield* Ref.set(state, kept)
          return { bootstrap: fallback, source: current?.source === "fetched" ? "cached" as const : "bundled" as const }
        })
      )

      const facts = (url: string) =>
        getJson(url).pipe(
          Effect.flatMap((doc) => Effect.try({ try: () => extractDomain(doc), catch: (e) => new ToolFailure({ message: `${url}: ${(e as Error).message}` }) }))
        )

      const lookup = Effect.fn("Rdap.lookup")(function*(input: string) {
        const name = input.trim().toLowerCase().replace(/\.$/, "")
        const domain = getDomain(name, { allowPrivateDomains: false }) ?? name
        const boot = yield* bootstrap
        const base = findRdapBase(boot.bootstrap, domain)
        if (!base) {
          const tld = domain.split(".").pop()
          return yield* new ToolFailure({ message: `no RDAP service is registered for .${tld} in the IANA bootstrap file` })
        }
        let registryUrl = domainQueryUrl(base.urls[0], domain)
        let registry: RdapFacts | undefined
        let lastError: ToolFailure | undefined
        for (const baseUrl of base.urls) {
          registryUrl = domainQueryUrl(baseUrl, domain)
          const r = yield* Effect.either(facts(registryUrl))
          if (r._tag === "Right") {
            registry = r.right
            break
          }
          lastError = r.left
          if (/\(404\)$/.test(r.left.message)) {
            return yield* ToolFailure.fromApiError(new NotFound({ message: `${domain} is not registered (the .${base.suffix} registry answered 404)` }))
          }
        }
        if (!registry) return yield* new ToolFailure({ message: `RDAP registry lookup failed: ${lastError?.message ?? "no server"}` })

        let registrar: RdapFacts | null = null
        let registrarError: string | null = null
        const referral = registry.referral && registry.referral !== registryUrl ? registry.referral : null
        if (referral) {
          const r = yield* Effect.either(facts(referral))
          if (r._tag === "Right") registrar = r.right
          else registrarError = r.left.message
        }
        const now = yield* Clock.currentTimeMillis
        return mergeFacts(domain, registry, registrar, {
          bootstrap: boot.source,
          registry_url: registryUrl,
          registrar_url: referral,
          registrar_error: registrarError
        }, now)
      })

      return { lookup }
    })
  )
}
