/**
 * The audit world for the benchmark, in a process of its own (so its servers and proxies do not
 * share the service's event loop), inside the namespace bench/audit/run.ts made: every answer
 * delayed DELAY_MS. Prints its files as one JSON line; stops when stdin closes.
 */
import { startWorld } from "../../test/analyses/audit/world/start"

const world = await startWorld(process.env.AUDIT_WORLD_DIR!, Number(process.env.DELAY_MS ?? 50))
console.log(JSON.stringify(world.files))
const stop = async () => {
  await world.stop()
  process.exit(0)
}
process.stdin.on("end", () => void stop())
process.stdin.resume()
