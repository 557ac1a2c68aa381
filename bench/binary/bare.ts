/** The baseline: a bare Bun.serve binary answering /healthz (bench/binary/startup.ts builds it). */
const server = Bun.serve({
  port: Number(process.env.PORT ?? 8080),
  hostname: process.env.HOST ?? "0.0.0.0",
  fetch: (req) => new URL(req.url).pathname === "/healthz" ? Response.json({ status: "ok" }) : new Response("not found", { status: 404 })
})
console.error(`Listening on http://${server.hostname}:${server.port}`)
export {}
