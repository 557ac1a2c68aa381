/** The access log's line buffer: one write per interval or per full buffer, in order, none lost. */
import { describe, expect, test } from "bun:test"
import { makeLineBuffer } from "../../src/platform/observability/accessLog"

describe("line buffer", () => {
  test("lines wait for the interval, then go out together and in order", async () => {
    const writes: Array<string> = []
    const lines = makeLineBuffer((t) => writes.push(t), 30, 1_000_000)
    lines.push("a\n")
    lines.push("b\n")
    expect(writes).toEqual([])
    await Bun.sleep(80)
    expect(writes).toEqual(["a\nb\n"])
    lines.push("c\n")
    lines.flush() // shutdown: at once
    expect(writes).toEqual(["a\nb\n", "c\n"])
    lines.flush()
    expect(writes).toHaveLength(2) // nothing pending, nothing written
  })

  test("a full buffer is written at once, without waiting", () => {
    const writes: Array<string> = []
    const lines = makeLineBuffer((t) => writes.push(t), 60_000, 10)
    lines.push("12345\n")
    expect(writes).toEqual([])
    lines.push("67890\n")
    expect(writes).toEqual(["12345\n67890\n"])
    lines.flush()
    expect(writes).toHaveLength(1)
  })
})
