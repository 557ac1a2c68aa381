/** `GET /v1/security/blocklist`: developer plan, category `security`, metered. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ParseResult, Schema } from "effect"
import { parseTarget } from "../../analyses/blocklist/plan"
import { BlocklistReport } from "../../analyses/blocklist/schema"
import { InvalidRequest, NotFoundWire, TargetForbiddenWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { Auth } from "../../product/auth/Auth"
import { operationInputs, Param } from "./inputs"

/**
 * The `target` parameter: an IPv4 address (four decimal parts), an IPv6 address (bracketed or
 * not) or a domain by the domain parameter's rules; decoded to its canonical spelling (IPv6 in
 * RFC 5952 form, an IPv4-mapped address as its IPv4, a domain lower-cased). Anything else is
 * `400 invalid_request` with the reason (docs/operations/blocklist.md, "What is asked").
 */
export const BlocklistTargetParam = Schema.transformOrFail(
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)),
  Schema.String,
  {
    strict: true,
    decode: (input, _options, ast) => {
      const t = parseTarget(input)
      if (t instanceof InvalidRequest) return ParseResult.fail(new ParseResult.Type(ast, input, t.message))
      return ParseResult.succeed(t.kind === "ip" ? t.item.value : t.domain)
    },
    encode: ParseResult.succeed
  }
).annotations({ description: "An IPv4 or IPv6 address, or a domain such as example.com" })

/** `GET /v1/security/blocklist` and the MCP tool `blocklist`. */
export const BlocklistInputs = operationInputs({
  target: Param.text(BlocklistTargetParam, {
    description: "The IPv4 or IPv6 address, or the domain, to look up on the blocklists (for a domain: the domain on the domain lists, and the addresses of its A, AAAA and MX hosts on the IP lists)"
  })
})

export class BlocklistApi extends HttpApiGroup.make("blocklist")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("blocklistCheck", "/v1/security/blocklist")
      .annotate(OpenApi.Summary, "Blocklist (DNSBL) reputation of an IP address or a domain")
      .annotate(
        OpenApi.Description,
        "Asks the DNS blocklists of DNSBL_IP_ZONES (for an address, and for each address of a domain's A, AAAA and MX hosts) and DNSBL_DOMAIN_ZONES (for a domain) as RFC 5782 describes: reversed IPv4 octets, nibble-reversed IPv6, the domain itself. Each (list, item) is `listed` (an A answer in 127.0.0.0/8, with its return `codes` and the list's TXT `reason`), `not_listed` (NXDOMAIN) or `error`: a refused or rate-limited query (127.255.255.0/24, 127.0.0.1), an answer outside 127.0.0.0/8 (a resolver rewrote it), no answer within DNS_TIMEOUT_MS, or a list that failed its RFC 5782 test points (127.0.0.2 must be listed, 127.0.0.1 must not; `test` and `invalid` on domain lists; asked once per list per DNSBL_TEST_TTL_S). An error is never `not_listed`. A private or special-purpose address is 400 `target_forbidden` (no public list lists it) unless ALLOW_PRIVATE_TARGETS; 404 when the domain does not exist; 502 when the service's own resolvers cannot answer."
      )
      .setUrlParams(BlocklistInputs.query)
      .addSuccess(BlocklistReport)
      .addError(TargetForbiddenWire)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
