import { HttpApiBuilder } from "@effect/platform"
import { HttpServerRequest } from "@effect/platform"
import { Effect, ParseResult, Schema } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { InvalidRequest, TargetForbidden } from "../../kernel/errors"
import { parseTarget, vetTarget } from "../../adapters/probe/guard"
import { parseJson } from "../../platform/http/body"
import { Alerts } from "../../product/alerts/Alerts"
import type { Channel } from "../../product/alerts/analyze"
import { ResolveBody } from "../api/alerts"

/**
 * Every webhook URL goes through the target guard at creation (and again at every delivery,
 * src/product/alerts/webhook.ts): a refused address is 400 target_forbidden now; a name that does not
 * resolve yet is accepted (its deliveries fail and retry until it does).
 */
export const checkChannels = (channels: ReadonlyArray<Channel> | undefined) =>
  Effect.forEach(channels ?? [], (c) => {
    if (c.type !== "webhook") return Effect.void
    const t = parseTarget(c.url)
    if (!("url" in t)) return Effect.fail(t)
    return vetTarget(t).pipe(
      Effect.asVoid,
      Effect.catchAll((e) => e instanceof TargetForbidden ? Effect.fail(e) : Effect.void)
    )
  }, { discard: true })

/** Resolve's body is optional: none, empty, or `{ "notes": "…" }`. */
const resolveNotes = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const text = yield* request.text.pipe(
    Effect.mapError(() => new InvalidRequest({ message: "the request body could not be read" }))
  )
  if (text.trim().length === 0) return null
  const json = yield* parseJson(text)
  const body = yield* Schema.decodeUnknown(ResolveBody)(json).pipe(
    Effect.mapError((e) => new InvalidRequest({ message: ParseResult.TreeFormatter.formatErrorSync(e) }))
  )
  return body.notes ?? null
})

export const AlertsLive = HttpApiBuilder.group(Api, "alerts", (handlers) =>
  Effect.gen(function*() {
    const alerts = yield* Alerts
    return handlers
      .handle("createAlertRule", ({ payload }) =>
        Effect.gen(function*() {
          const { org } = yield* Caller
          yield* checkChannels(payload.channels)
          return yield* alerts.createRule(org.id, {
            name: payload.name,
            metric: payload.metric,
            operator: payload.operator,
            threshold_value: payload.threshold_value,
            window_minutes: payload.window_minutes,
            channels: payload.channels ?? [],
            cooldown_minutes: payload.cooldown_minutes ?? 15,
            enabled: payload.enabled ?? true
          })
        }))
      .handle("rotateAlertRuleSecret", ({ path }) => Effect.flatMap(Caller, ({ org }) => alerts.rotateSecret(org.id, path.id)))
      .handle("testAlertRule", ({ path }) => Effect.flatMap(Caller, ({ org }) => alerts.testRule(org.id, path.id)))
      .handle("listAlertRules", () =>
        Effect.flatMap(Caller, ({ org }) => Effect.map(alerts.listRules(org.id), (rules) => ({ rules }))))
      .handle("getAlertRule", ({ path }) =>
        Effect.flatMap(Caller, ({ org }) => Effect.map(alerts.getRule(org.id, path.id), (rule) => ({ rule }))))
      .handle("updateAlertRule", ({ path, payload }) =>
        Effect.gen(function*() {
          const { org } = yield* Caller
          yield* checkChannels(payload.channels)
          return { rule: yield* alerts.updateRule(org.id, path.id, payload) }
        }))
      .handle("deleteAlertRule", ({ path }) => Effect.flatMap(Caller, ({ org }) => alerts.deleteRule(org.id, path.id)))
      .handle("listAlertHistory", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => Effect.map(alerts.history(org.id, urlParams), (list) => ({ alerts: list }))))
      .handle("acknowledgeAlert", ({ path }) =>
        Effect.flatMap(Caller, ({ org }) =>
          Effect.map(alerts.acknowledge(org.id, path.id), (alert) => ({ acknowledged: true, alert }))))
      .handle("resolveAlert", ({ path }) =>
        Effect.gen(function*() {
          const { org } = yield* Caller
          const notes = yield* resolveNotes
          const alert = yield* alerts.resolve(org.id, path.id, notes)
          return { resolved: true, alert }
        }))
  })
)
