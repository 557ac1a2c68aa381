import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { checkChannels } from "./alerts"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { Monitors } from "../../product/monitors/Monitors"

export const MonitorsLive = HttpApiBuilder.group(Api, "monitors", (handlers) =>
  Effect.gen(function*() {
    const monitors = yield* Monitors
    return handlers
      .handle("createMonitor", ({ payload }) =>
        Effect.gen(function*() {
          const { org } = yield* Caller
          yield* checkChannels(payload.channels)
          return yield* monitors.create(org, payload)
        }))
      .handle("listMonitors", () =>
        Effect.flatMap(Caller, ({ org }) => Effect.map(monitors.list(org.id), (list) => ({ monitors: list }))))
      .handle("getMonitor", ({ path }) =>
        Effect.flatMap(Caller, ({ org }) => Effect.map(monitors.get(org.id, path.id), (monitor) => ({ monitor }))))
      .handle("updateMonitor", ({ path, payload }) =>
        Effect.gen(function*() {
          const { org } = yield* Caller
          yield* checkChannels(payload.channels)
          return { monitor: yield* monitors.update(org.id, path.id, payload) }
        }))
      .handle("deleteMonitor", ({ path }) => Effect.flatMap(Caller, ({ org }) => monitors.remove(org.id, path.id)))
      .handle("rotateMonitorSecret", ({ path }) => Effect.flatMap(Caller, ({ org }) => monitors.rotateSecret(org.id, path.id)))
      .handle("listMonitorResults", ({ path, urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => monitors.results(org.id, path.id, urlParams)))
      .handle("monitorUptime", ({ path, urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => monitors.uptime(org.id, path.id, urlParams.period ?? "current")))
  })
)
