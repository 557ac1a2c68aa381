/**
 * A schema decode failure as the 400 `invalid_request` both surfaces answer: the REST error
 * middleware (for query strings and bodies) and the MCP server (for tool arguments) format it
 * here, so the same bad input gets the same message and `details.issues` on either
 * (docs/mcp.md, "One contract").
 */
import { ParseResult } from "effect"
import { InvalidRequest } from "./errors"

/** One issue as Effect's `ArrayFormatter` (and `HttpApiDecodeError.issues`) give it. */
export interface DecodeIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** Issues of a decode failure, one per parameter: alternatives of a union are merged. */
const mergedIssues = (issues: ReadonlyArray<DecodeIssue>): Array<{ path: string; message: string }> => {
  const byPath = new Map<string, Array<string>>()
  for (const i of issues) {
    const path = i.path.map(String).join(".")
    // Do not echo a huge hostile value back in full.
    const message = i.message.length > 300 ? `${i.message.slice(0, 300)}…` : i.message
    byPath.set(path, [...(byPath.get(path) ?? []), message])
  }
  return [...byPath].map(([path, messages]) => {
    // An optional field's union adds "Expected undefined" beside the real complaint.
    const real = messages.length > 1 ? messages.filter((m) => !/^Expected undefined/.test(m)) : messages
    const alternatives = real.map((m) => /^Expected (.+), actual (.+)$/s.exec(m))
    if (real.length > 1 && alternatives.every((m) => m !== null && m[2] === alternatives[0]![2])) {
      return { path, message: `Expected one of ${alternatives.map((m) => m![1]).join(", ")}; actual ${alternatives[0]![2]}` }
    }
    return { path, message: real.join("; ") }
  })
}

/**
 * The 400 for a decode failure: the message names each parameter and what is wrong with it (a
 * message that already starts with its parameter's name, such as the domain parameter's, is not
 * prefixed twice); `details.issues` lists them. `fallback` is the message when no issue is given.
 */
export const invalidRequestOf = (issues: ReadonlyArray<DecodeIssue>, fallback = "invalid request"): InvalidRequest => {
  const merged = mergedIssues(issues)
  const message = merged.length === 0
    ? fallback
    : merged.map((i) => (i.path === "" || i.message.startsWith(`${i.path} `) ? i.message : `${i.path}: ${i.message}`)).join("; ")
  return new InvalidRequest({ message, details: { issues: merged } })
}

/** The 400 for a `ParseError` of a schema decode. */
export const invalidRequestFromParseError = (e: ParseResult.ParseError): InvalidRequest =>
  invalidRequestOf(ParseResult.ArrayFormatter.formatErrorSync(e), e.message)
