export type Period = "7d" | "30d" | "current"

export interface Account {
  readonly org: string
  readonly plan: string
  readonly quota: { limit: number; used: number; remaining: number; percentage_used: number; resets_at: string }
  readonly key: { id: string; name: string | null; created_at: string; expires_at: string | null }
}

export interface Ctx {
  period: Period
  /** null when the service has no GET /v1/account (older builds): quota then comes from usage. */
  account: Account | null
  monitorsAvailable: boolean
}

export type View = (root: HTMLElement, ctx: Ctx) => Promise<void>
