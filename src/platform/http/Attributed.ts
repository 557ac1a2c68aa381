/**
 * The middleware of unauthenticated groups (health, readiness): reports the matched operation to
 * the pipeline, as `Auth` does for authenticated ones, so every served request is attributed from
 * the route the router matched.
 */
import { HttpApiMiddleware } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Operations } from "./Operation"
import { attribute } from "./RequestFacts"

export class Attributed extends HttpApiMiddleware.Tag<Attributed>()("domain-intel/Attributed") {}

export const AttributedLive = Layer.effect(
  Attributed,
  Effect.map(Operations, (operations) => Effect.asVoid(attribute(operations)))
)
