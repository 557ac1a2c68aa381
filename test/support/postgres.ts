/**
 * A throwaway PostgreSQL cluster on loopback for one test file (docs/postgres.md, "Tests"):
 * `initdb` under a temp directory, `pg_ctl start` on 127.0.0.1 and a free port, the unix socket
 * in the temp directory, trust authentication. The server refuses to run as root, so as root
 * every command runs as the `postgres` system user (`runuser`), which owns the directory.
 *
 *   const pg = await startPostgres()
 *   const url = await pg.createDatabase()   // postgres://postgres@127.0.0.1:PORT/t_1
 *   ...
 *   await pg.stop()                          // stops the server and removes the directory
 *
 * `pause()`/`resume()` stop and restart the same cluster (a database outage).
 */
import { spawnSync } from "node:child_process"
import { chownSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin"

export interface PostgresCluster {
  readonly port: number
  /** The directory of the server's unix socket (reachable from another network namespace). */
  readonly socketDir: string
  /** A URL for the `postgres` database (administration). */
  readonly adminUrl: string
  /** Creates a fresh empty database and returns its URL. */
  readonly createDatabase: (name?: string) => Promise<string>
  /** Runs SQL through psql on `database`; returns stdout (tuples only, unaligned). */
  readonly psql: (database: string, query: string) => string
  /** Stops the server (fast), keeping the data: the database is unreachable until `resume`. */
  readonly pause: () => Promise<void>
  readonly resume: () => Promise<void>
  readonly stop: () => Promise<void>
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0

const run = (command: string, args: ReadonlyArray<string>, options: { allowFail?: boolean } = {}) => {
  const [cmd, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, [...args]]
  const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: "/" })
  if (r.status !== 0 && !options.allowFail) {
    throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.stdout}`)
  }
  return r.stdout
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })

let databases = 0

export const startPostgres = async (options: {
  /** Extra server settings (`-c name=value`), e.g. durability for a benchmark. */
  readonly settings?: Record<string, string>
} = {}): Promise<PostgresCluster> => {
  const dir = mkdtempSync(join(tmpdir(), "di-pg-"))
  if (isRoot) {
    const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" })
    const gids = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" })
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()))
  }
  const data = join(dir, "data")
  run(`${BIN}/initdb`, ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"])
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: dir,
    max_connections: "200",
    // A test cluster: losing it on a machine crash costs nothing.
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
    ...options.settings
  }
  let port = 0
  const startServer = () => {
    const opts = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(" ")
    run(`${BIN}/pg_ctl`, ["-D", data, "-l", join(dir, "server.log"), "-o", opts, "-w", "-t", "30", "start"])
  }
  for (let attempt = 0; ; attempt++) {
    port = await freePort()
    try {
      startServer()
      break
    } catch (e) {
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true })
        throw e
      }
    }
  }
  const psql = (database: string, query: string) =>
    run("/usr/bin/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", query])
  let stopped = false
  return {
    port,
    socketDir: dir,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    createDatabase: async (name) => {
      const db = name ?? `t_${process.pid}_${++databases}`
      psql("postgres", `CREATE DATABASE ${db}`)
      return `postgres://postgres@127.0.0.1:${port}/${db}`
    },
    psql,
    pause: async () => {
      run(`${BIN}/pg_ctl`, ["-D", data, "-m", "fast", "-w", "stop"])
    },
    resume: async () => {
      startServer()
    },
    stop: async () => {
      if (stopped) return
      stopped = true
      run(`${BIN}/pg_ctl`, ["-D", data, "-m", "immediate", "-w", "stop"], { allowFail: true })
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
