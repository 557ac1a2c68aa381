/**
 * GET /openapi.json and GET /docs, both built on first request rather than at start-up: the
 * document costs a walk over every schema, and the docs page embeds the Scalar viewer (3.3 MB of
 * JavaScript, about 10 MB of resident memory once evaluated) that most instances never serve.
 */
import { HttpApi, HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { buildDocument } from "./document"

const escapeJson = (value: unknown) =>
  JSON.stringify(value).replace(/<\/script>/gi, "<\\/script>").replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** The Scalar bundle that @effect/platform ships for HttpApiScalar, loaded only when /docs is asked for. */
const scalarJavascript = (): Promise<string> =>
  // @ts-ignore: an internal module of @effect/platform (its declaration file is empty)
  import("../../../node_modules/@effect/platform/dist/esm/internal/httpApiScalar.js").then((m: { javascript: string }) => m.javascript)

const docsPage = (spec: { readonly info: { readonly title: string } }, javascript: string) => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(spec.info.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json">${escapeJson(spec)}</script>
    <script>document.getElementById('api-reference').dataset.configuration = JSON.stringify({"_integration":"html"})</script>
    <script>${javascript}</script>
  </body>
</html>`

export const OpenApiRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { api } = yield* HttpApi.Api
    let document: ReturnType<typeof buildDocument> | undefined
    let json: string | undefined
    let page: string | undefined
    const spec = () => (document ??= buildDocument(api))
    yield* router.get(
      "/openapi.json",
      Effect.sync(() => HttpServerResponse.text((json ??= JSON.stringify(spec())), { contentType: "application/json" }))
    )
    yield* router.get(
      "/docs",
      Effect.promise(async () => {
        page ??= docsPage(spec(), await scalarJavascript())
        return HttpServerResponse.text(page, { contentType: "text/html; charset=utf-8" })
      })
    )
  })
)
