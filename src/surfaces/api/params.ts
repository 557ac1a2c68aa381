/**
 * Query parameters arrive as strings; their schemas decode them into numbers. The OpenAPI
 * generator documents the encoded side (a string, without the range), so each one carries a
 * `jsonSchema` annotation that shows what a client sends: an integer with its range and default.
 */
import { Schema } from "effect"

/** The `{id}` path parameter of a resource (alert rules, alerts, monitors). */
export const IdPath = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({ description: "the resource's id, as returned when it was created" })
})

export const IntParam = (options: { readonly min: number; readonly max: number; readonly default?: number; readonly description: string }) =>
  // The description goes only into the JSON Schema: as a schema description it would replace the
  // "Expected a number between …" of decode errors.
  Schema.NumberFromString.pipe(Schema.int(), Schema.between(options.min, options.max)).annotations({
    jsonSchema: {
      type: "integer",
      minimum: options.min,
      maximum: options.max,
      ...(options.default === undefined ? {} : { default: options.default }),
      description: options.description
    }
  })

/** A target URL or bare host (http-check, security headers): the target guard decides the rest. */
export const UrlParam = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048))
