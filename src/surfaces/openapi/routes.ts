/**
 * GET /openapi.json, built on first request rather than at start-up (the document costs a walk
 * over every schema), and GET /docs, the platform's Scalar page (HttpApiScalar), also built on
 * its first request: `HttpApiScalar.layer` walks the API into an OpenAPI document and inlines
 * the 3.3 MB Scalar viewer into the page when its layer is built, which at start-up cost tens of
 * milliseconds and ~10 MB of idle memory (docs/operating.md, "The binary"). Its module is
 * loaded with `import()`, and its layer built into a router of its own, once.
 */
import { HttpApi, HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import type { ApiRouter } from "../../platform/http/Operation"
import { buildDocument } from "./document"

const DOCS_PATH = "/docs"

/** Registers GET /openapi.json and GET /docs on the API's router. */
export const openApiRoutes = (router: ApiRouter) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    let document: ReturnType<typeof buildDocument> | undefined
    let json: string | undefined
    const spec = () => (document ??= buildDocument(api.api))
    yield* router.get(
      "/openapi.json",
      Effect.sync(() => HttpServerResponse.text((json ??= JSON.stringify(spec())), { contentType: "application/json" }))
    )
    // The page's own router: the Scalar layer registers GET /docs on it, exactly as it would
    // on the server's router (same page, same headers), and it answers this path's requests.
    const docsRouter = yield* Effect.cached(
      Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
        Effect.flatMap(({ layer }) =>
          HttpApiBuilder.Router.router.pipe(
            Effect.provide(Layer.provideMerge(layer({ path: DOCS_PATH }), HttpApiBuilder.Router.Live)),
            Effect.provideService(HttpApi.Api, api)
          )
        )
      )
    )
    yield* router.get(DOCS_PATH, Effect.flatMap(docsRouter, (docs) => docs))
  })
