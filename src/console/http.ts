/**
 * GET /console (the page), /console/app.js and /console/app.css, mounted on the HttpApi router
 * beside the API like /docs. Open: the page holds no data; it calls the public API with the
 * user's key. Any other /console path is a 404 that still carries the CSP.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { appCss, appJs } from "./generated/assets"
import { CONSOLE_PATH, consoleHeaders, consoleHtml } from "./page"

const respond = (body: string, contentType: string, status = 200) =>
  Effect.succeed(HttpServerResponse.text(body, { status, headers: consoleHeaders(contentType) }))

const page = respond(consoleHtml, "text/html; charset=utf-8")

export const ConsoleLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    yield* router.get(CONSOLE_PATH, page)
    yield* router.get(`${CONSOLE_PATH}/app.js`, respond(appJs, "text/javascript; charset=utf-8"))
    yield* router.get(`${CONSOLE_PATH}/app.css`, respond(appCss, "text/css; charset=utf-8"))
    yield* router.get(
      `${CONSOLE_PATH}/*`,
      respond(JSON.stringify({ error: { code: "not_found", message: "no such console asset" } }), "application/json", 404)
    )
  })
)
