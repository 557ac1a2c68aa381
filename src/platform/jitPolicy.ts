/**
 * The JIT's tier-up policy between start-up and work (docs/operating.md, "The binary").
 *
 * The binary starts with JavaScriptCore's tier-up thresholds scaled so far up (scripts/build.ts,
 * `--compile-jit-policy`) that nothing leaves the interpreter: building the layers is code that
 * runs once, and optimizing it, as the normal policy does, cost ~10 MB of idle memory (the
 * optimizing compilers' pages, their code and profiles) and compile threads competing with the
 * start on a small machine. An idle server's own ticks (monitor claims, log flushes) are light
 * and stay interpreted too. The running policy is set at the first sign of work: a request for
 * a caller (authenticated), a monitor run, or WORK_REQUESTS requests of any kind (a flood of
 * anonymous or refused requests is work as well); from then on the JIT tiers up as usual.
 */

/** The policy from the first work on: 3x the default thresholds, which measured the same or better warm throughput than 1 (docs/operating.md). */
export const RUNNING_JIT_POLICY = 3
/** Requests of any kind after which the server is busy whether or not any had a caller. */
export const WORK_REQUESTS = 1000

export interface WorkSignal {
  /** A request was answered; `forCaller` when it was authenticated. */
  readonly request: (forCaller: boolean) => void
  /** Work that is not a request (a monitor run). */
  readonly work: () => void
  readonly settled: () => boolean
}

/** The signal over `apply` (the pure core; tests give their own). */
export const makeWorkSignal = (apply: (policy: number) => void, workRequests = WORK_REQUESTS): WorkSignal => {
  let settled = false
  let requests = 0
  const settle = () => {
    settled = true
    apply(RUNNING_JIT_POLICY)
  }
  return {
    request: (forCaller) => {
      if (settled) return
      if (forCaller || ++requests >= workRequests) settle()
    },
    work: () => {
      if (!settled) settle()
    },
    settled: () => settled
  }
}

/** The process's one signal: the JIT policy is the process's, as is this. */
export const workSignal: WorkSignal = makeWorkSignal((policy) => Bun.unsafe.setJITPolicy(policy))
