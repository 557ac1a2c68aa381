/**
 * TLS lab: a PKI made by the test with openssl (root, intermediate, RSA and EC leaves, expired,
 * wrong-name and self-signed leaves) and `openssl s_server` on a random loopback port, plus
 * `openssl s_client` to confirm what a configuration really accepts.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { tempDir } from "../support/tmp"

const run = (cwd: string, args: ReadonlyArray<string>) => execFileSync("openssl", args, { cwd, stdio: "pipe" })

const CA_CONF = `[ ca ]
default_ca = CA_default
[ CA_default ]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = policy_any
unique_subject = no
[ policy_any ]
commonName = supplied
`

export interface Leaf {
  readonly cert: string
  readonly key: string
}

export interface Lab {
  readonly dir: string
  /** Root CA certificate (PEM path): what NODE_EXTRA_CA_CERTS names in the tests. */
  readonly rootPath: string
  readonly intermediatePath: string
  /** A leaf signed by the intermediate: paths of its certificate and key. */
  readonly leaf: (name: string, opts: { names: ReadonlyArray<string>; key?: "rsa" | "ec"; start?: string; end?: string; rsaBits?: number }) => Leaf
  readonly selfSigned: (name: string, names: ReadonlyArray<string>) => Leaf
}

const san = (names: ReadonlyArray<string>) => names.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(",")
const keyArgs = (key: "rsa" | "ec", bits = 2048) =>
  key === "rsa" ? ["-newkey", `rsa:${bits}`] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]

export const makeLab = (): Lab => {
  const dir = tempDir("di-tls-")
  writeFileSync(join(dir, "ca.cnf"), CA_CONF)
  writeFileSync(join(dir, "index.txt"), "")
  writeFileSync(join(dir, "serial"), "1000\n")
  writeFileSync(join(dir, "ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n")
  run(dir, ["req", "-x509", ...keyArgs("ec"), "-nodes", "-keyout", "root.key", "-out", "root.pem", "-days", "30", "-subj", "/CN=domain-intel TLS test root",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
  run(dir, ["req", ...keyArgs("ec"), "-nodes", "-keyout", "int.key", "-out", "int.csr", "-subj", "/CN=domain-intel TLS test intermediate"])
  run(dir, ["ca", "-batch", "-config", "ca.cnf", "-cert", "root.pem", "-keyfile", "root.key", "-in", "int.csr", "-out", "int.pem", "-days", "20", "-extfile", "ca.ext", "-notext"])
  return {
    dir,
    rootPath: join(dir, "root.pem"),
    intermediatePath: join(dir, "int.pem"),
    leaf: (name, opts) => {
      writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san(opts.names)}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`)
      run(dir, ["req", ...keyArgs(opts.key ?? "rsa", opts.rsaBits), "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${opts.names[0]}`])
      const dates = opts.start && opts.end ? ["-startdate", opts.start, "-enddate", opts.end] : ["-days", "10"]
      run(dir, ["ca", "-batch", "-config", "ca.cnf", "-cert", "int.pem", "-keyfile", "int.key", "-in", `${name}.csr`, "-out", `${name}.pem`, ...dates, "-extfile", `${name}.ext`, "-notext"])
      return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) }
    },
    selfSigned: (name, names) => {
      run(dir, ["req", "-x509", ...keyArgs("rsa"), "-nodes", "-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "10", "-subj", `/CN=${names[0]}`, "-addext", `subjectAltName=${san(names)}`])
      return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) }
    }
  }
}

export interface SServer {
  readonly port: number
  readonly args: ReadonlyArray<string>
  readonly stop: () => void
}

/** `openssl s_server` on 127.0.0.1 and a port it picks itself (read from its ACCEPT line). */
export const startSServer = (cwd: string, args: ReadonlyArray<string>): Promise<SServer> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn("openssl", ["s_server", "-accept", "127.0.0.1:0", "-www", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`s_server did not start: ${out}`)) }, 10_000)
    const onData = (d: Buffer) => {
      out += d
      const m = /ACCEPT 127\.0\.0\.1:(\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ port: Number(m[1]), args, stop: () => { child.kill("SIGKILL") } })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`s_server exited (${code}): ${out}`)) })
  })

let names: Map<string, string> | undefined
/** OpenSSL's suite names to IANA's, from `openssl ciphers -stdname`. */
const ianaNames = () => names ??= new Map(
  spawnSync("openssl", ["ciphers", "-stdname", "ALL:COMPLEMENTOFALL:@SECLEVEL=0"], { encoding: "utf8" }).stdout.split("\n")
    .map((l) => /^\s*(\S+)\s+-\s+(\S+)\s/.exec(l)).filter((m) => m !== null).map((m) => [m![2], m![1]] as const)
)

/** One `openssl s_client` handshake: the negotiated protocol and cipher (IANA name), or null when refused. */
export const sClient = (port: number, args: ReadonlyArray<string>): { protocol: string; cipher: string } | null => {
  const r = spawnSync("openssl", ["s_client", "-connect", `127.0.0.1:${port}`, "-servername", "localhost", "-brief", ...args], { input: "", encoding: "utf8", timeout: 10_000 })
  const text = `${r.stdout}${r.stderr}`
  const protocol = /Protocol version: (\S+)/.exec(text)?.[1]
  const cipher = /Ciphersuite: (\S+)/.exec(text)?.[1]
  if (!protocol || !cipher) return null
  const iana = cipher.startsWith("TLS_") ? cipher : ianaNames().get(cipher) ?? cipher
  return { protocol, cipher: iana }
}

export type BunServerSpec = {
  readonly kind: "serve" | "tls" | "http2"
  readonly headers?: Record<string, string>
  readonly ciphers?: string
  readonly minVersion?: string
  readonly maxVersion?: string
}

/** A TLS server on Bun's own TLS stack in a child process (bunServer.ts), with `leaf` and the lab's intermediate. */
export const startBunServer = (lab: Lab, leaf: Leaf, spec: BunServerSpec): Promise<SServer> =>
  new Promise((resolve, reject) => {
    const arg = JSON.stringify({ ...spec, cert: leaf.cert, key: leaf.key, chain: lab.intermediatePath })
    const child: ChildProcess = spawn(process.execPath, [join(import.meta.dir, "bunServer.ts"), arg], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`Bun TLS server did not start: ${out}`)) }, 10_000)
    const onData = (d: Buffer) => {
      out += d
      const m = /LISTENING (\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ port: Number(m[1]), args: [arg], stop: () => { child.kill("SIGKILL") } })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`Bun TLS server exited (${code}): ${out}`)) })
  })
