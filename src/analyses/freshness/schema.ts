/** The Content Freshness report (docs/operations/content-freshness.md, "Report"): one contract for the REST answer, the MCP tool and the analysis. */
import { Schema } from "effect"

const N = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)
const DateType = Schema.Literal("published", "modified", "created")

const DatedField = Schema.Struct({
  source: Schema.String,
  date: Schema.String.annotations({ description: "ISO 8601 as stated by the source (calendar day of the page, time and offset when given)" }),
  ageInDays: Schema.Number
})

export const CacheHeaders = Schema.Struct({
  cacheControl: N(Schema.String),
  directives: Schema.Struct({
    maxAge: N(Schema.Number),
    sMaxAge: N(Schema.Number),
    noCache: Schema.Boolean,
    noStore: Schema.Boolean,
    private: Schema.Boolean,
    public: Schema.Boolean,
    mustRevalidate: Schema.Boolean,
    proxyRevalidate: Schema.Boolean,
    immutable: Schema.Boolean,
    noTransform: Schema.Boolean,
    staleWhileRevalidate: N(Schema.Number),
    staleIfError: N(Schema.Number)
  }),
  etag: Schema.Struct({ present: Schema.Boolean, value: N(Schema.String), weak: N(Schema.Boolean) }),
  lastModified: N(Schema.String),
  age: N(Schema.Number),
  expires: N(Schema.String),
  pragma: N(Schema.String),
  vary: N(Schema.String),
  effectiveTtl: N(Schema.Number).annotations({ description: "Seconds a shared cache may serve the response without revalidation (RFC 9111 §4.2.1)" }),
  browserTtl: N(Schema.Number),
  ttlSource: Schema.Literal("no-store", "no-cache", "private", "s-maxage", "max-age", "expires", "heuristic", "none"),
  remainingTtl: N(Schema.Number),
  cdn: Schema.Struct({
    detected: Schema.Boolean,
    provider: N(Schema.String),
    cacheStatus: N(Schema.String),
    indicators: Schema.Array(Schema.Struct({ header: Schema.String, value: Schema.String, provider: N(Schema.String) }))
  }),
  issues: Schema.Array(Schema.String)
})

export const FreshnessReport = Schema.Struct({
  domain: Schema.String,
  url: Schema.String,
  finalUrl: Schema.String,
  statusCode: Schema.Number,
  lastModifiedHeader: N(Schema.String),
  publishDate: N(DatedField),
  modifiedDate: N(DatedField),
  allDatesFound: Schema.Array(Schema.Struct({ source: Schema.String, date: Schema.String, type: DateType })),
  contentAge: Schema.Struct({
    days: N(Schema.Number),
    category: Schema.Literal("fresh", "recent", "aging", "stale", "unknown"),
    basis: N(Schema.Literal("modified", "published"))
  }),
  cacheHeaders: CacheHeaders,
  dateConsistency: Schema.Struct({
    consistent: Schema.Boolean,
    issues: Schema.Array(Schema.String),
    dateSpreadDays: N(Schema.Number),
    modifiedAfterPublished: N(Schema.Boolean),
    ignored: Schema.Array(Schema.Struct({ source: Schema.String, reason: Schema.String }))
  }),
  confidence: Schema.Literal("high", "medium", "low", "none"),
  score: Schema.Number,
  scoreBreakdown: Schema.Struct({ contentAge: Schema.Number, signalQuality: Schema.Number, cacheHygiene: Schema.Number }),
  grade: Schema.Literal("A+", "A", "B", "C", "D", "F"),
  recommendations: Schema.Array(Schema.String),
  bodyTruncated: Schema.Boolean
})
