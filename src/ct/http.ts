import { group } from "../http/group"
import { Api } from "../Api"
import { ctLogsResponse } from "./report"

export { parseSince } from "./report"

export const CtLive = group(Api, "ct", (handlers) =>
  handlers.handle("ctLogs", ({ urlParams }) => ctLogsResponse(urlParams))
)
