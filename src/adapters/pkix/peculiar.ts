/**
 * The x509 stack (@peculiar/x509 over tsyringe, @peculiar/asn1-schema), one place for it.
 * tsyringe needs the Reflect polyfill evaluated first, and the bundled binary evaluates a
 * module's ES imports ahead of its CommonJS ones whatever their order; `require` runs in
 * statement order, so the polyfill is in place before the stack. Nothing on the start-up path
 * imports this module statically: its users load it on first need (`import()`), which keeps
 * the stack's ~12 ms and ~4 MB out of start-up (docs/operating.md, "The binary").
 */
require("reflect-metadata")
export const x509 = require("@peculiar/x509") as typeof import("@peculiar/x509")
export const asn1 = require("@peculiar/asn1-schema") as typeof import("@peculiar/asn1-schema")
