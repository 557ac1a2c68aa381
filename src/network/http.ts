import { group } from "../http/group"
import { Api } from "../Api"
import { httpCheck } from "./HttpCheck"

export const NetworkLive = group(Api, "network", (handlers) =>
  handlers.handle("httpCheck", ({ urlParams }) => httpCheck(urlParams))
)
