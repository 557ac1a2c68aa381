/**
 * Certificates made by the test with openssl: a CA, a leaf for given names signed by it, and a
 * self-signed leaf nobody trusts.
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { tempDir } from "./tmp"

export interface TestPki {
  readonly dir: string
  readonly caCertPath: string
  readonly caCert: string
  /** Leaf signed by the CA for `names` (DNS names and IPs). */
  readonly leaf: (names: ReadonlyArray<string>, opts?: { days?: number; extraExt?: string }) => { cert: string; key: string }
  /** A self-signed certificate no trust store knows. */
  readonly selfSigned: (names: ReadonlyArray<string>) => { cert: string; key: string }
}

const openssl = (args: ReadonlyArray<string>, cwd: string) => execFileSync("openssl", args, { cwd, stdio: "pipe" })

const san = (names: ReadonlyArray<string>) =>
  names.map((n) => (/^[\d.]+$/.test(n) || n.includes(":") ? `IP:${n}` : `DNS:${n}`)).join(",")

export const makePki = (): TestPki => {
  const dir = tempDir("di-pki-")
  openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
    "-days", "30", "-subj", "/CN=domain-intel test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"], dir)
  let n = 0
  return {
    dir,
    caCertPath: join(dir, "ca.pem"),
    caCert: readFileSync(join(dir, "ca.pem"), "utf8"),
    leaf: (names, opts = {}) => {
      const id = `leaf${++n}`
      openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", `${id}.key`, "-out", `${id}.csr`, "-subj", `/CN=${names[0]}`], dir)
      writeFileSync(join(dir, `${id}.ext`), `subjectAltName=${san(names)}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n${opts.extraExt ?? ""}`)
      openssl(["x509", "-req", "-in", `${id}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${id}.pem`,
        "-days", String(opts.days ?? 10), "-extfile", `${id}.ext`], dir)
      return { cert: readFileSync(join(dir, `${id}.pem`), "utf8"), key: readFileSync(join(dir, `${id}.key`), "utf8") }
    },
    selfSigned: (names) => {
      const id = `self${++n}`
      openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", `${id}.key`, "-out", `${id}.pem`,
        "-days", "10", "-subj", `/CN=${names[0]}`, "-addext", `subjectAltName=${san(names)}`], dir)
      return { cert: readFileSync(join(dir, `${id}.pem`), "utf8"), key: readFileSync(join(dir, `${id}.key`), "utf8") }
    }
  }
}
