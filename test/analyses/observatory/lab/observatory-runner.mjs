// Runs the MDN HTTP Observatory's own scanner (its src/scanner, as its CLI src/scan.js does) on
// each host given, one JSON line per host: grade, score and every test's result.
import { scan } from "@mdn/mdn-http-observatory/src/scanner/index.js"

for (const host of process.argv.slice(2)) {
  const t0 = performance.now()
  let out
  try {
    const r = await scan(host)
    out = {
      host,
      grade: r.scan.grade,
      score: r.scan.score,
      tests_passed: r.scan.testsPassed,
      tests: Object.fromEntries(Object.entries(r.tests).map(([name, t]) => [name, { result: t.result, pass: t.pass, score_modifier: t.scoreModifier }]))
    }
  } catch (e) {
    out = { host, error: e instanceof Error ? e.message : String(e) }
  }
  out.ms = performance.now() - t0
  console.log(JSON.stringify(out))
}
