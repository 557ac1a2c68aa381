/**
 * The served OpenAPI document: generated from the HttpApi definition (the one contract), then
 * completed with what the generator cannot know: the package version, the prose of
 * operations.ts, each operation's plan, the error envelope that 400 answers really carry (the
 * generator documents its own decode-error shape, which the error renderer never sends), the MCP
 * raw route, response examples, and no internal schema names as titles.
 */
import { type HttpApi, type HttpApiGroup, OpenApi } from "@effect/platform"
import { version } from "../../../package.json"
import { makeOperations } from "../../platform/http/Operation"
import { MCP_PATH } from "../mcp/route"
import { EXAMPLES } from "../api/examples"
import { mcpPathItem } from "./mcp"

type Json = any

const ERROR_CODE_EXAMPLES: Record<string, string> = {
  invalid_request: "timeout: Expected a number between 1000 and 30000, actual \"50\"",
  target_forbidden: "the target is not a public address",
  unauthorized: "unknown or malformed API key",
  plan_forbidden: "ctLogs needs the developer plan or above; this key's organization is on free",
  not_found: "no alert rule with this id",
  alert_already_resolved: "the alert is already resolved",
  quota_exceeded: "monthly quota of 1000 requests for the free plan is used up",
  upstream_unavailable: "the CT aggregator did not answer and no cached answer exists",
  internal_error: "internal error",
  method_not_allowed: "GET is not allowed here; use POST",
  payload_too_large: "the request body is larger than 1048576 bytes",
  rate_limited: "too many zone audits at once for this organization; retry shortly"
}

/** What each error answer means, in place of the generator's class names. */
const RESPONSE_TEXT: Record<string, string> = {
  "401": "unauthorized: missing, malformed, unknown, revoked or expired key (WWW-Authenticate: Bearer)",
  "403": "plan_forbidden: the key's plan is below the operation's",
  "404": "not_found: unknown id, or one that belongs to another organization",
  "405": "method_not_allowed: a known path asked with another method (the Allow header lists the methods)",
  "409": "alert_already_resolved",
  "413": "payload_too_large: a body over 1 MiB",
  "429": "quota_exceeded: the monthly quota is used up, or rate_limited: too much at once (Retry-After)",
  "500": "internal_error: never carries a stack trace",
  "502": "upstream_unavailable: an upstream failed or ran out of time and no cached answer exists",
  "503": "the database does not answer"
}

/** "zoneHygiene" → "Zone hygiene" (for operations that have no summary anywhere). */
const humanize = (name: string) => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Descriptions the generator derives from a schema's type (they say nothing to a user). */
const generic = (d: string | undefined) => d === undefined || /^(a string|an? (integer|number|non-empty)|a string to be decoded)/.test(d)

/** Titles such as `maxLength(2048)` or `int` are the generator's names for filters, not documentation. */
const stripInternalTitles = (node: Json): void => {
  if (Array.isArray(node)) return node.forEach(stripInternalTitles)
  if (node === null || typeof node !== "object") return
  if (typeof node.title === "string" && (/[()]/.test(node.title) || /^(int|unknown|nonNaN|finite)$/.test(node.title))) delete node.title
  for (const v of Object.values(node)) stripInternalTitles(v)
}

const refersTo = (doc: Json, name: string) => JSON.stringify(doc).includes(`"#/components/schemas/${name}"`)

/** The issues list of an invalid_request answer (src/surfaces/server/renderErrors.ts `decodeIssues`). */
const invalidRequestDetails = {
  type: "object",
  description: "present when parameters or the body failed validation: one entry per offending field",
  properties: {
    issues: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: { type: "string", description: "the parameter or body field, dot-separated", examples: ["timeout"] },
          message: { type: "string", examples: ["Expected a number between 1000 and 30000, actual \"50\""] }
        }
      }
    }
  }
}

const planText = (plan: string) =>
  plan === "free" ? "Plan: any (free and above)." : `Plan: ${plan} and above (403 \`plan_forbidden\` below it).`

export const buildDocument = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): OpenApi.OpenAPISpec => {
  const doc: Json = structuredClone(OpenApi.fromApi(api))
  const plans = new Map(makeOperations(api).all.map((r) => [r.operation, r.plan]))

  doc.info = {
    ...doc.info,
    version,
    description:
      "Domain intelligence API: HTTP checks, DNS zone audits, Certificate Transparency, content freshness, WAF detection, MCP, usage analytics and alerts.\n\n" +
      "Every `/v1` operation needs `Authorization: Bearer <key>` and counts against the organization's monthly quota (answers carry `X-RateLimit-Limit` and `X-RateLimit-Remaining`). " +
      "Every error is `{\"error\":{\"code\",\"message\",\"details?\"}}`."
  }
  doc.servers = [{ url: "/", description: "this server" }]
  doc.paths[MCP_PATH] = mcpPathItem(plans.get("mcpServer") ?? "pro")

  const used = new Set<string>()
  for (const item of Object.values(doc.paths) as Array<Json>) {
    for (const op of Object.values(item) as Array<Json>) {
      const name = String(op.operationId ?? "").split(".").pop() ?? ""
      // Summaries and descriptions are annotations on the endpoints (src/surfaces/api); an
      // operation without one still gets a summary made from its name.
      op.summary ??= humanize(name)
      const plan = plans.get(name)
      if (plan !== undefined) {
        op["x-plan"] = plan
        op.description = op.description === undefined ? planText(plan) : `${op.description}\n\n${planText(plan)}`
      }
      for (const t of op.tags ?? []) used.add(t)
      for (const p of op.parameters ?? []) {
        if (generic(p.description)) p.description = p.schema?.description ?? p.name
        if (p.schema && generic(p.schema.description)) p.schema.description = p.description
      }
      for (const [status, response] of Object.entries(op.responses ?? {}) as Array<[string, Json]>) {
        const media = response.content?.["application/json"]
        if (media?.schema?.anyOf) {
          // The decode-error shape is never sent: a failed decode is the invalid_request envelope.
          const refs = media.schema.anyOf.map((s: Json) => s.$ref === "#/components/schemas/HttpApiDecodeError" ? { $ref: "#/components/schemas/InvalidRequest" } : s)
          const unique = refs.filter((s: Json, i: number) => refs.findIndex((o: Json) => JSON.stringify(o) === JSON.stringify(s)) === i)
          media.schema = unique.length === 1 ? unique[0] : { anyOf: unique }
        } else if (media?.schema?.$ref === "#/components/schemas/HttpApiDecodeError") {
          media.schema = { $ref: "#/components/schemas/InvalidRequest" }
        }
        if (RESPONSE_TEXT[status] !== undefined && /^[A-Z][A-Za-z]+$/.test(response.description ?? "")) response.description = RESPONSE_TEXT[status]
        if (status === "400" && response.description === "The request did not match the expected schema") {
          response.description = "invalid_request: a parameter or the body failed validation (or target_forbidden where the operation takes a target)"
        }
        const example = EXAMPLES[name]
        if (status.startsWith("2") && media !== undefined && example !== undefined) media.example = example
      }
    }
  }
  // Tag descriptions are the groups' own OpenApi.Description annotations.
  const described = new Map<string, Json>((doc.tags ?? []).map((t: Json) => [t.name, t]))
  doc.tags = [
    ...[...described.values()].filter((t) => used.has(t.name)),
    ...[...used].filter((name) => !described.has(name)).map((name) => ({ name, description: name === "mcp" ? "Model Context Protocol" : humanize(name) }))
  ]

  const schemas = doc.components?.schemas ?? {}
  for (const [name, schema] of Object.entries(schemas) as Array<[string, Json]>) {
    const error = schema?.properties?.error
    const code = error?.properties?.code?.enum?.[0]
    if (code === undefined) continue
    if (code === "invalid_request") error.properties.details = invalidRequestDetails
    else if (error.properties.details !== undefined) error.properties.details = { type: "object", description: "more about the error, when there is more" }
    schema.examples = [{ error: { code, message: ERROR_CODE_EXAMPLES[code] ?? humanize(name) } }]
  }
  for (const internal of ["HttpApiDecodeError", "Issue", "PropertyKey"]) {
    if (schemas[internal] === undefined) continue
    const { [internal]: _, ...rest } = schemas
    if (!refersTo({ ...doc, components: { ...doc.components, schemas: rest } }, internal)) delete schemas[internal]
  }
  stripInternalTitles(doc)
  return doc
}
