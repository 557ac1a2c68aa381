/** Helpers for tests that run the service as a separate process. */

/** Polls `url` until it answers 2xx or the time is up; returns whether it came up. */
export const waitUntilUp = async (url: string, timeoutMs = 20000): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await fetch(url).then((r) => r.ok, () => false)) return true
    await Bun.sleep(100)
  }
  return false
}

/**
 * A loopback port that was free a moment ago: the kernel picks it (so it never collides with a
 * port a running test holds, as a random pick in the ephemeral range could), then it is released
 * for the child process to bind.
 */
export const randomPort = () => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** Polls `f` until it yields a value; fails after `ms` naming what was awaited. */
export const until = async <A>(f: () => Promise<A | undefined> | A | undefined, what: string, ms = 15_000): Promise<A> => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const v = await f()
    if (v !== undefined) return v
    await Bun.sleep(25)
  }
  throw new Error(`timed out waiting for ${what}`)
}
