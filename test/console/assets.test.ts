/**
 * The committed bundle (src/surfaces/console/generated/assets.ts) is what Bun builds from the sources now:
 * edit src/surfaces/console/app or console.css without `bun scripts/build-console.ts` and this fails.
 */
import { expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { buildConsoleAssets, GENERATED_PATH, renderAssetsModule } from "../../src/surfaces/console/build"

test("the generated console assets are up to date", async () => {
  const fresh = renderAssetsModule(await buildConsoleAssets())
  const committed = readFileSync(GENERATED_PATH, "utf8")
  // Equal text; on a mismatch say what to run rather than dump 80 kB.
  if (fresh !== committed) throw new Error("src/surfaces/console/generated/assets.ts is stale: run `bun scripts/build-console.ts`")
  expect(fresh).toBe(committed)
})

test("the bundle carries uPlot and no remote URL to load from", async () => {
  const { js, css } = await buildConsoleAssets()
  expect(js).toContain("uplot")
  expect(css).toContain(".uplot")
  expect(js).not.toMatch(/(import|src=|href=)\s*\(?["']https?:/)
  expect(css).not.toMatch(/url\(\s*["']?https?:/)
})
