/**
 * A typed client of the REST API for TypeScript users, derived from the same `Api` the server
 * serves (so a renamed field or a new error is a type error on both sides at once). Every
 * operation is `client.<group>.<operationId>(...)`; declared errors arrive as their classes
 * (`NotFound`, `QuotaExceeded`, …). README › "A typed client" has an example.
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { Effect } from "effect"
import { Api } from "./api/Api"

export interface ClientOptions {
  /** Where the service runs, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string
  /** An API key (`di_…`); sent as `Authorization: Bearer`. */
  readonly apiKey?: string
}

/** The client; needs an `HttpClient` (e.g. `FetchHttpClient.layer` from `@effect/platform`). */
export const makeClient = (options: ClientOptions) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: options.apiKey === undefined
      ? undefined
      : HttpClient.mapRequest(HttpClientRequest.bearerToken(options.apiKey))
  })

export type Client = Effect.Effect.Success<ReturnType<typeof makeClient>>
