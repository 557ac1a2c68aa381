/**
 * GET /console (the page), /console/app.js and /console/app.css, mounted on the HttpApi router
 * beside the API like /docs. Open: the page holds no data; it calls the public API with the
 * user's key. Any other /console path is a 404, and another method a 405; both carry the CSP.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { appCss, appJs } from "./generated/assets"
import type { ApiRouter } from "../../platform/http/Operation"
import { CONSOLE_PATH, consoleHeaders, consoleHtml } from "./page"

const respond = (body: string, contentType: string, status = 200, extra: Record<string, string> = {}) =>
  Effect.succeed(HttpServerResponse.text(body, { status, headers: { ...consoleHeaders(contentType), ...extra } }))

const errorJson = (code: string, message: string) => JSON.stringify({ error: { code, message } })

const notAllowed = respond(errorJson("method_not_allowed", "the console is read with GET"), "application/json", 405, { allow: "GET, HEAD" })

export const consoleRoutes = (router: ApiRouter) =>
  Effect.gen(function*() {
    yield* router.get(CONSOLE_PATH, respond(consoleHtml, "text/html; charset=utf-8"))
    yield* router.get(`${CONSOLE_PATH}/app.js`, respond(appJs, "text/javascript; charset=utf-8"))
    yield* router.get(`${CONSOLE_PATH}/app.css`, respond(appCss, "text/css; charset=utf-8"))
    yield* router.get(`${CONSOLE_PATH}/*`, respond(errorJson("not_found", "no such console asset"), "application/json", 404))
    for (const path of [CONSOLE_PATH, `${CONSOLE_PATH}/*`] as const) {
      yield* router.post(path, notAllowed)
      yield* router.put(path, notAllowed)
      yield* router.patch(path, notAllowed)
      yield* router.del(path, notAllowed)
    }
  })
