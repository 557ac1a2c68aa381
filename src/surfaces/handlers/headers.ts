import { Effect } from "effect"
import { HttpSecurityGrade } from "../../analyses/observatory/HttpSecurityGrade"
import { Api } from "../api/Api"
import { HttpApiBuilder } from "@effect/platform"

export const SecurityHeadersLive = HttpApiBuilder.group(Api, "securityHeaders", (handlers) =>
  handlers.handle("securityHeaders", ({ urlParams }) => Effect.flatMap(HttpSecurityGrade, (g) => g.grade(urlParams.url)))
)
