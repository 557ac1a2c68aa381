/** A bare Bun.serve answering fixed bytes: the throughput ceiling the service is compared with. */
const body = Buffer.from(process.env.BARE_BODY_B64 ?? "", "base64")
const contentType = process.env.BARE_CONTENT_TYPE ?? "application/json"
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "content-type": contentType } })
})
console.log(server.port)
