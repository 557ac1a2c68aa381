import { Schema } from "effect"

export const Plan = Schema.Literal("free", "developer", "pro", "enterprise")
export type Plan = typeof Plan.Type

const rank: Record<Plan, number> = { free: 0, developer: 1, pro: 2, enterprise: 3 }

/** Monthly request quotas (docs/conventions.md, "Plans"). */
export const monthlyQuota: Record<Plan, number> = {
  free: 1_000,
  developer: 50_000,
  pro: 500_000,
  enterprise: 10_000_000
}

export const planAllows = (have: Plan, need: Plan): boolean => rank[have] >= rank[need]
