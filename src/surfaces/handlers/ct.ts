import { group } from "../../platform/http/group"
import { Api } from "../api/Api"
import { ctLogsResponse } from "../../analyses/ct/report"

export { parseSince } from "../../analyses/ct/report"

export const CtLive = group(Api, "ct", (handlers) =>
  handlers.handle("ctLogs", ({ urlParams }) => ctLogsResponse(urlParams))
)
