/**
 * GET /openapi.json, built on first request rather than at start-up (the document costs a walk
 * over every schema), and GET /docs, the platform's Scalar page (HttpApiScalar).
 */
import { HttpApi, HttpApiBuilder, HttpApiScalar, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { buildDocument } from "./document"

const DocumentRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { api } = yield* HttpApi.Api
    let document: ReturnType<typeof buildDocument> | undefined
    let json: string | undefined
    const spec = () => (document ??= buildDocument(api))
    yield* router.get(
      "/openapi.json",
      Effect.sync(() => HttpServerResponse.text((json ??= JSON.stringify(spec())), { contentType: "application/json" }))
    )
  })
)

export const OpenApiRoutes = Layer.mergeAll(DocumentRoute, HttpApiScalar.layer({ path: "/docs" }))
