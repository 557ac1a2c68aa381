/**
 * Where the MCP endpoint is and how the router attributes it. Kept apart from the server
 * (./http.ts) so that routing and the OpenAPI document can name it without loading the MCP
 * server, which is built on the endpoint's first request (./lazy.ts).
 */
import type { RawRoute } from "../../platform/http/Operation"

export const MCP_PATH = "/v1/advanced/mcp"
export const MCP_OPERATION = "mcpServer"

/** For `makeOperations(api, raw)`: attribution, category and plan label of the raw route. */
export const mcpRawRoutes: ReadonlyArray<RawRoute> = [
  { method: "POST", path: MCP_PATH, operation: MCP_OPERATION, plan: "pro" }
]

/** The stdio command's key (`domain-intel mcp`). */
export const API_KEY_ENV = "DOMAIN_INTEL_API_KEY"
