import { HttpApiBuilder } from "@effect/platform"
import { Api } from "../api/Api"
import { httpCheck } from "../../analyses/network/HttpCheck"

export const NetworkLive = HttpApiBuilder.group(Api, "network", (handlers) =>
  handlers.handle("httpCheck", ({ urlParams }) => httpCheck(urlParams))
)
