import { HttpApiBuilder } from "@effect/platform"
import { Api } from "../Api"
import { ctLogsResponse } from "./report"

export { parseSince } from "./report"

export const CtLive = HttpApiBuilder.group(Api, "ct", (handlers) =>
  handlers.handle("ctLogs", ({ urlParams }) => ctLogsResponse(urlParams))
)
