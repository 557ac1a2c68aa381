import { HttpApiBuilder } from "@effect/platform"
import { Api } from "../api/Api"
import { CtLogsInputs } from "../api/ct"
import { ctLogsReport } from "../../analyses/ct/report"

export { parseSince } from "../../analyses/ct/report"

/** The CT Logs report from its decoded inputs: what the REST operation and the MCP tool `ct_logs` both run. */
export const ctLogs = (inputs: typeof CtLogsInputs.json.Type) =>
  ctLogsReport({
    ...inputs,
    offset: inputs.offset ?? CtLogsInputs.defaults.offset,
    limit: inputs.limit ?? CtLogsInputs.defaults.limit
  })

export const CtLive = HttpApiBuilder.group(Api, "ct", (handlers) =>
  handlers.handle("ctLogs", ({ urlParams }) => ctLogs(urlParams))
)
