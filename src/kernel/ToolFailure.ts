/**
 * A tool that could not complete on its target (unreachable host, refused target, upstream
 * answering garbage). It becomes a tool result with `isError: true`, never a JSON-RPC error.
 */
import { Data } from "effect"

export class ToolFailure extends Data.TaggedError("ToolFailure")<{ readonly message: string }> {}
