import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { listLocations } from "../../product/monitors/Locations"

export const LocationsLive = HttpApiBuilder.group(Api, "locations", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("listLocations", () => Effect.orDie(listLocations(sql)))
  })
)
