import { type ChildProcess, spawn } from "node:child_process"

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
 * The port a `serve` child started with PORT=0 reports in its "Listening on" log line (it needs
 * LOG_LEVEL info or lower). The child binds the port itself, so no other test can take it between
 * a pick and the bind, as it could when a test chose a port for the child.
 */
const listeningPort = (child: ChildProcess, timeoutMs = 20000): Promise<number> =>
  new Promise((resolve, reject) => {
    let seen = ""
    const timer = setTimeout(() => reject(new Error(`no "Listening on" within ${timeoutMs} ms; stderr: ${seen.slice(-2000)}`)), timeoutMs)
    child.stderr!.on("data", (d) => {
      seen += d
      const m = /Listening on http:\/\/[^\s"]+:(\d+)/.exec(seen)
      if (m) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`exited (${code}) before listening; stderr: ${seen.slice(-2000)}`))
    })
  })

/**
 * `serve` as a child process on 127.0.0.1 and a port it binds itself: the port, its stdout and
 * stderr so far, and its exit code. A child that never listens is killed and the call fails.
 */
export const startServe = async (command: string, args: ReadonlyArray<string>, options: {
  readonly cwd?: string
  readonly env: Record<string, string | undefined>
}) => {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...options.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let out = ""
  let err = ""
  child.stdout!.on("data", (d) => (out += d))
  child.stderr!.on("data", (d) => (err += d))
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)))
  try {
    return { child, port: await listeningPort(child), stdout: () => out, stderr: () => err, exited }
  } catch (e) {
    child.kill("SIGKILL")
    throw e
  }
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
