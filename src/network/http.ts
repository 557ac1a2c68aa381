import { HttpApiBuilder } from "@effect/platform"
import { Api } from "../Api"
import { httpCheck } from "./HttpCheck"

export const NetworkLive = HttpApiBuilder.group(Api, "network", (handlers) =>
  handlers.handle("httpCheck", ({ urlParams }) => httpCheck(urlParams))
)
