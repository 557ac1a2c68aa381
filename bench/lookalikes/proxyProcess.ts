/** Starts bench/dns/delayProxyProcess.ts as a child process and waits until it listens. */
import { spawn } from "node:child_process"
import { join } from "node:path"

export const startProxyProcess = async (listen: string, target: string, delayMs: number) => {
  const child = spawn(process.execPath, [join(import.meta.dir, "../dns/delayProxyProcess.ts"), listen, target, String(delayMs)], { stdio: ["ignore", "pipe", "inherit"] })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => { if (d.toString().includes("ready")) resolve() })
    child.once("exit", (code) => reject(new Error(`delay proxy exited ${code}`)))
  })
  return { stop: () => void child.kill("SIGTERM") }
}
