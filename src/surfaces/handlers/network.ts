import { group } from "../../platform/http/group"
import { Api } from "../api/Api"
import { httpCheck } from "../../analyses/network/HttpCheck"

export const NetworkLive = group(Api, "network", (handlers) =>
  handlers.handle("httpCheck", ({ urlParams }) => httpCheck(urlParams))
)
