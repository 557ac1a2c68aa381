/**
 * The framework's own ceiling, for bench/http/ceiling.ts: a minimal Effect HttpApi (one GET
 * endpoint, no middleware, tracer off like the service) on BunHttpServer, on PORT.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import { BunHttpServer, BunRuntime } from "@effect/platform-bun"
import { Effect, Layer, Schema } from "effect"

class G extends HttpApiGroup.make("g").add(HttpApiEndpoint.get("x", "/x").addSuccess(Schema.Struct({ status: Schema.String }))) {}
class A extends HttpApi.make("a").add(G) {}

HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(A).pipe(Layer.provide(HttpApiBuilder.group(A, "g", (h) => h.handle("x", () => Effect.succeed({ status: "ok" })))))),
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(BunHttpServer.layer({ port: Number(process.env.PORT), hostname: "127.0.0.1" })),
  Layer.launch,
  BunRuntime.runMain
)
