import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { OperationCategory, PlanLabel } from "../../platform/http/Operation"

export const LocationsReport = Schema.Struct({
  locations: Schema.Array(Schema.Struct({
    name: Schema.String.annotations({ description: "an INSTANCE_LOCATION some instance ran with" }),
    instances: Schema.Number.annotations({ description: "instances of the location seen within the last 60 s" }),
    last_seen_at: Schema.String.annotations({ description: "the location's latest heartbeat (instances beat every 15 s), ISO 8601 UTC" }),
    live: Schema.Boolean.annotations({ description: "seen within the last 60 s" })
  }))
}).annotations({ identifier: "LocationsReport" })

/** The locations monitors can run from (docs/operations/locations.md). */
export class LocationsApi extends HttpApiGroup.make("locations")
  .annotate(PlanLabel, "free")
  .annotate(OperationCategory, "monitors")
  .annotate(OpenApi.Description, "The locations the service's instances run monitors from")
  .add(
    HttpApiEndpoint.get("listLocations", "/v1/locations")
      .annotate(OpenApi.Summary, "Locations, live and stale")
      .annotate(
        OpenApi.Description,
        "Every location an instance has run in (INSTANCE_LOCATION), by name: its live instances, its last heartbeat, and whether it is live (seen within 60 s). A monitor's `locations` may name only these. Counts as one request (category `monitors`)."
      )
      .addSuccess(LocationsReport)
  )
  .middleware(Auth)
{}
