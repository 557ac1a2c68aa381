/**
 * Example success bodies per operation, shown in the OpenAPI document (trimmed answers of the
 * service, recorded against loopback targets; arrays cut to one or two entries).
 */
export const EXAMPLES: Record<string, unknown> = {
  healthz: { status: "ok" },
  readyz: { status: "ready", database: "ok" },
  account: {
    org: "acme",
    plan: "developer",
    quota: { limit: 50000, used: 1204, remaining: 48796, percentage_used: 2.41, resets_at: "2026-12-01T00:00:00.000Z" },
    key: { id: "5f0c2a9e41d7b3c8", name: "ci", created_at: "2026-11-02T09:14:03.120Z", expires_at: null }
  }
}
