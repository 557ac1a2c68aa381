/**
 * Where a cheap request's time goes, layer by layer, in one run (needs Debian's `wrk`):
 *   1. bare Bun.serve answering fixed bytes;
 *   2. a minimal Effect HttpApi (one endpoint, no middleware) on BunHttpServer — the
 *      framework's own ceiling;
 *   3. domain-intel's unauthenticated GET /healthz (its middlewares, no auth);
 *   4. domain-intel's authenticated, metered GET /v1/alerts/rules on the HttpApi path
 *      (FAST_PATH=false);
 *   5. the same on the fast path (src/http/FastPath.ts), the default.
 * Run: bun bench/http/ceiling.ts [seconds]
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"

const seconds = Number(process.argv[2] ?? 5)
if (spawnSync("wrk", ["--version"]).error) throw new Error("install Debian's wrk first")

const wrk = async (url: string, headers: Array<string> = []) => {
  const args = ["-c100", "-t2", `-d${seconds}s`, ...headers.flatMap((h) => ["-H", h]), url]
  const p = spawn("wrk", args)
  let out = ""
  p.stdout.on("data", (d) => (out += d))
  await new Promise((r) => p.on("exit", r))
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)
}

// 1. bare
const bare = spawn(process.execPath, ["-e", `Bun.serve({ port: 18501, hostname: "127.0.0.1", fetch: () => new Response('{"status":"ok"}', { headers: { "content-type": "application/json" } }) })`])

// 2. minimal HttpApi, in this process
class G extends HttpApiGroup.make("g").add(HttpApiEndpoint.get("x", "/x").addSuccess(Schema.Struct({ status: Schema.String }))) {}
class A extends HttpApi.make("a").add(G) {}
const minimal = ManagedRuntime.make(
  HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.api(A).pipe(Layer.provide(HttpApiBuilder.group(A, "g", (h) => h.handle("x", () => Effect.succeed({ status: "ok" })))))),
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(BunHttpServer.layer({ port: 18502, hostname: "127.0.0.1" }))
  )
)
await minimal.runPromise(Effect.void)

// 3-5. the service, as its own process: the HttpApi path only (18503) and with the fast path (18504)
const dir = mkdtempSync(join(tmpdir(), "di-ceiling-"))
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "db")}`, HOST: "127.0.0.1", LOG_LEVEL: "warn" }
const root = join(import.meta.dir, "../..")
const key = spawnSync(process.execPath, ["src/main.ts", "keys", "create", "--org", "bench", "--plan", "enterprise"], { cwd: root, env, encoding: "utf8" }).stdout.trim().split("\n").pop()!
const services = [["18503", "false"], ["18504", "true"]].map(([port, fast]) =>
  spawn(process.execPath, ["src/main.ts", "serve"], { cwd: root, env: { ...env, PORT: port, FAST_PATH: fast }, stdio: "ignore" })
)
for (const port of ["18503", "18504"]) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break
    await Bun.sleep(100)
  }
}
await Bun.sleep(300)

const rows: Array<[string, number]> = []
rows.push(["bare Bun.serve", await wrk("http://127.0.0.1:18501/")])
rows.push(["minimal Effect HttpApi (framework ceiling)", await wrk("http://127.0.0.1:18502/x")])
rows.push(["domain-intel GET /healthz (no auth)", await wrk("http://127.0.0.1:18503/healthz")])
rows.push(["domain-intel GET /v1/alerts/rules, HttpApi path (auth, quota, log)", await wrk("http://127.0.0.1:18503/v1/alerts/rules", [`Authorization: Bearer ${key}`])])
rows.push(["domain-intel GET /v1/alerts/rules, fast path (auth, quota, log)", await wrk("http://127.0.0.1:18504/v1/alerts/rules", [`Authorization: Bearer ${key}`])])
console.log(`wrk -c100 -t2 -d${seconds}s, loopback`)
console.log("| server | requests/s | × bare |\n|---|---|---|")
for (const [name, rps] of rows) console.log(`| ${name} | ${Math.round(rps)} | ${(rps / rows[0][1]).toFixed(2)} |`)
bare.kill()
for (const s of services) s.kill("SIGTERM")
await minimal.dispose()
