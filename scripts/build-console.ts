/** Regenerates src/surfaces/console/generated/assets.ts (run after editing src/surfaces/console/app or console.css). */
import { writeFileSync } from "node:fs"
import { buildConsoleAssets, GENERATED_PATH, renderAssetsModule } from "../src/surfaces/console/build"

const assets = await buildConsoleAssets()
writeFileSync(GENERATED_PATH, renderAssetsModule(assets))
console.log(`wrote ${GENERATED_PATH}: js ${assets.js.length} bytes, css ${assets.css.length} bytes`)
