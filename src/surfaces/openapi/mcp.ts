/**
 * POST /v1/advanced/mcp in the OpenAPI document: a raw route beside the HttpApi (src/surfaces/mcp/http.ts),
 * so the generator does not see it. The protocol itself is JSON-RPC 2.0 (MCP, docs/operations/mcp.md).
 */
const envelope = (code: string, message: string) => ({
  description: message,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["error"],
        properties: {
          error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } }
        }
      },
      example: { error: { code, message } }
    }
  }
})

const JsonRpcMessage = {
  type: "object",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { type: "string", enum: ["2.0"] },
    id: { type: ["string", "integer", "null"], description: "absent for notifications" },
    method: { type: "string", examples: ["initialize", "tools/list", "tools/call"] },
    params: { type: "object" }
  }
}

const JsonRpcAnswer = {
  type: "object",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { type: "string", enum: ["2.0"] },
    id: { type: ["string", "integer", "null"] },
    result: { type: "object" },
    error: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" }, data: {} } }
  }
}

export const mcpPathItem = (plan: string) => ({
  post: {
    tags: ["mcp"],
    operationId: "mcp.mcpServer",
    summary: "Model Context Protocol server (JSON-RPC over HTTP)",
    description:
      "Streamable-HTTP MCP endpoint: POST one JSON-RPC 2.0 message (or, for protocol versions 2024-11-05 and 2025-03-26, a batch array). Tools run the same analyses as the REST operations; each `tools/call` counts as one request against the quota. Pro plan and above.",
    security: [{ bearer: [] }],
    "x-plan": plan,
    parameters: [
      {
        name: "MCP-Protocol-Version",
        in: "header",
        required: false,
        description: "the protocol version agreed at initialize; an unsupported one is HTTP 400",
        schema: { type: "string", enum: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] }
      }
    ],
    requestBody: {
      required: true,
      description: "one JSON-RPC message, or an array of them (a batch) for protocol versions 2024-11-05 and 2025-03-26",
      content: {
        "application/json": {
          schema: { oneOf: [JsonRpcMessage, { type: "array", items: JsonRpcMessage }] },
          example: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "dns_lookup", arguments: { domain: "example.com" } } }
        }
      }
    },
    responses: {
      "200": {
        description: "the JSON-RPC answer (or an array of answers for a batch); tool failures are JSON-RPC results with isError",
        content: {
          "application/json": {
            schema: { oneOf: [JsonRpcAnswer, { type: "array", items: JsonRpcAnswer }] },
            example: { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "dns_lookup", title: "DNS lookup" }] } }
          }
        }
      },
      "202": { description: "only notifications were sent: nothing to answer" },
      "400": envelope("invalid_request", "unsupported MCP-Protocol-Version header"),
      "401": envelope("unauthorized", "unknown or malformed API key"),
      "403": envelope("plan_forbidden", "mcpServer needs the pro plan or above"),
      "413": envelope("invalid_request", "request body larger than 1048576 bytes"),
      "429": envelope("quota_exceeded", "monthly quota used up")
    }
  }
})
