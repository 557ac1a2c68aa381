/**
 * An answer sent as JSON without HttpApi's success encoder, for hot endpoints whose success
 * schema has no transformations (its encoded form is its type: numbers, strings, literals,
 * records, arrays, structs). The value's static type must be the schema's encoded type, so the
 * builder cannot drift from the contract unnoticed; each use has a test that its body is a fixed
 * point of the schema's strict decode and encode (no missing, extra or mistyped field). The
 * OpenAPI document still comes from the schema. Used by the usage report, whose encode through
 * `ParseResult` was a tenth of its cost per request.
 */
import { HttpServerResponse } from "@effect/platform"
import type { Schema } from "effect"

export const asJson = <S extends Schema.Schema.Any>(_schema: S) => (value: Schema.Schema.Encoded<S>): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(value)
