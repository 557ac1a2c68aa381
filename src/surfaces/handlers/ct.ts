import { HttpApiBuilder } from "@effect/platform"
import { Api } from "../api/Api"
import { ctLogsReport } from "../../analyses/ct/report"

export { parseSince } from "../../analyses/ct/report"

export const CtLive = HttpApiBuilder.group(Api, "ct", (handlers) =>
  handlers.handle("ctLogs", ({ urlParams }) => ctLogsReport(urlParams))
)
