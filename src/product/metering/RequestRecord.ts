/** One request as the request log keeps it (src/product/metering/RequestLog.ts). */
export interface RequestRecord {
  readonly orgId: string
  readonly operation: string
  readonly category: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly latencyMs: number
  readonly cache: string | null
  /** epoch milliseconds */
  readonly ts: number
}
