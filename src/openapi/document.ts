/**
 * The served OpenAPI document: generated from the HttpApi definition (the one contract), then
 * completed with what the generator cannot know (the package version).
 */
import { type HttpApi, OpenApi } from "@effect/platform"
import { version } from "../../package.json"

export const buildDocument = (api: HttpApi.HttpApi.Any): OpenApi.OpenAPISpec => {
  const spec = OpenApi.fromApi(api as any)
  return { ...spec, info: { ...spec.info, version } }
}
