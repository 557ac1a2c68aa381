import { Effect } from "effect"
import { HttpSecurityGrade } from "../../../analyses/observatory/HttpSecurityGrade"
import { Api } from "../../../Api"
import { group } from "../../../http/group"

export const SecurityHeadersLive = group(Api, "securityHeaders", (handlers) =>
  handlers.handle("securityHeaders", ({ urlParams }) => Effect.flatMap(HttpSecurityGrade, (g) => g.grade(urlParams.url)))
)
