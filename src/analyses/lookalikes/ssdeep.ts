/**
 * Context-triggered piecewise hashing (CTPH, "fuzzy hashing"): Kornblum, "Identifying almost
 * identical files using context triggered piecewise hashing", Digital Investigation 3S (2006),
 * after Tridgell's spamsum. The digests and scores are those of ssdeep 2.14 (libfuzzy), the
 * library dnstwist's `--ssdeep` page comparison calls, so a score here is the score dnstwist
 * shows for the same two pages; the suite holds it to the `ssdeep` program digest by digest and
 * score by score (docs/operations/lookalikes.md).
 *
 * How it works: a rolling hash over the last 7 bytes picks cut points that depend only on the
 * content near them (a cut wherever the rolling hash ≡ −1 mod the block size), so an edit moves
 * only the cuts next to it. Each piece between cuts becomes one base64 character (a 6-bit FNV
 * hash of the piece). The block size is chosen so the digest has 32-64 characters; a second
 * digest at twice the block size lets two inputs of different sizes be compared. Two digests
 * score 0-100 by their edit distance once they share a 7-character run.
 */

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const SPAMSUM_LENGTH = 64
const MIN_BLOCKSIZE = 3
const ROLLING_WINDOW = 7
/** FNV-1 offset basis reduced to the 6 bits a digest character keeps (0x28021967 mod 64). */
const HASH_INIT = 0x27
const FNV_PRIME = 0x01000193

/** FNV-1 step kept to 6 bits: only the low 6 bits of the state and of the byte reach the low 6 bits. */
const fnv6 = (h: number, c: number) => (Math.imul(h, FNV_PRIME) ^ c) & 0x3f

interface Pieces {
  readonly first: string
  readonly second: string
  /** Cut points committed at the block size (how full the first digest is). */
  readonly cuts: number
}

/** The two digests of `bytes` at block size `bs` and `2 * bs`. */
const piecewise = (bytes: Uint8Array, bs: number): Pieces => {
  const window = new Uint8Array(ROLLING_WINDOW)
  let h1 = 0
  let h2 = 0
  let h3 = 0
  let n = 0
  let a = HASH_INIT // piece hash at bs
  let b = HASH_INIT // piece hash at 2·bs (stops restarting once the second digest is half full)
  let first = ""
  let second = ""
  let fullFirst = ""
  let fullSecond = ""
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]
    h2 = (h2 - h1 + ROLLING_WINDOW * c) >>> 0
    h1 = (h1 + c - window[n]) >>> 0
    window[n] = c
    n = (n + 1) % ROLLING_WINDOW
    h3 = ((h3 << 5) ^ c) >>> 0
    a = fnv6(a, c)
    b = fnv6(b, c)
    // A cut where sum ≡ −1 (mod block size); sum = 2^32 − 1 never cuts.
    const next = (h1 + h2 + h3 + 1) >>> 0
    if (next === 0 || next % bs !== 0) continue
    if (first.length < SPAMSUM_LENGTH - 1) {
      first += B64[a]
      a = HASH_INIT
    } else fullFirst = B64[a] // the last piece runs to the end: it keeps growing
    if (next % (2 * bs) !== 0) continue
    if (second.length < SPAMSUM_LENGTH / 2 - 1) {
      second += B64[b]
      b = HASH_INIT
    } else fullSecond = B64[b]
  }
  // The piece after the last cut counts too, unless the rolling hash ended at 0 (an input of
  // zero bytes only), where ssdeep keeps only a piece written at a cut.
  const ended = ((h1 + h2 + h3) >>> 0) !== 0
  return {
    first: first + (ended ? B64[a] : fullFirst),
    second: second + (ended ? B64[b] : fullSecond),
    cuts: first.length
  }
}

/** The ssdeep digest of `bytes`: `blocksize:digest:digest2`. */
export const fuzzyHash = (bytes: Uint8Array): string => {
  let bs = MIN_BLOCKSIZE
  while (bs * SPAMSUM_LENGTH < bytes.length) bs *= 2
  for (;;) {
    const p = piecewise(bytes, bs)
    // Too few pieces for this block size: halve it and cut again.
    if (bs > MIN_BLOCKSIZE && p.cuts < SPAMSUM_LENGTH / 2) {
      bs /= 2
      continue
    }
    return `${bs}:${p.first}:${p.second}`
  }
}

/** Runs of more than three equal characters carry little information: cut them to three. */
const squeeze = (s: string) => s.replace(/(.)\1{3,}/g, "$1$1$1")

/** Whether `a` and `b` share a run of ROLLING_WINDOW characters. */
const shareRun = (a: string, b: string) => {
  const runs = new Set<string>()
  for (let i = 0; i + ROLLING_WINDOW <= a.length; i++) runs.add(a.slice(i, i + ROLLING_WINDOW))
  for (let i = 0; i + ROLLING_WINDOW <= b.length; i++) if (runs.has(b.slice(i, i + ROLLING_WINDOW))) return true
  return false
}

/** Edit distance with insertions and deletions at 1 and substitutions at 2 (ssdeep's weights). */
const editDistance = (a: string, b: string) => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 0; i < a.length; i++) {
    const row = [i + 1]
    for (let j = 0; j < b.length; j++) {
      row.push(Math.min(prev[j + 1] + 1, row[j] + 1, prev[j] + (a[i] === b[j] ? 0 : 2)))
    }
    prev = row
  }
  return prev[b.length]
}

/** Two digests at one block size, 0-100. */
const scoreDigests = (a: string, b: string, bs: number) => {
  if (a.length < ROLLING_WINDOW || b.length < ROLLING_WINDOW || !shareRun(a, b)) return 0
  const scaled = Math.floor((editDistance(a, b) * SPAMSUM_LENGTH) / (a.length + b.length))
  const score = 100 - Math.floor((100 * scaled) / SPAMSUM_LENGTH)
  // At small block sizes a short digest would overstate the match: cap by the digest length.
  if (bs >= Math.floor((99 + ROLLING_WINDOW) / ROLLING_WINDOW) * MIN_BLOCKSIZE) return score
  return Math.min(score, Math.floor(bs / MIN_BLOCKSIZE) * Math.min(a.length, b.length))
}

const parseDigest = (d: string) => {
  const m = /^(\d+):([^:]*):([^:,]*)/.exec(d)
  return m === null ? null : { bs: Number(m[1]), first: squeeze(m[2]), second: squeeze(m[3]) }
}

/**
 * How alike two ssdeep digests are, 0 (nothing in common) to 100 (the same); null when either
 * is not a digest. Digests whose block sizes differ by more than a factor of two are 0.
 */
export const fuzzyCompare = (x: string, y: string): number | null => {
  const a = parseDigest(x)
  const b = parseDigest(y)
  if (a === null || b === null) return null
  if (a.bs === b.bs && a.first === b.first && a.second === b.second) return 100
  if (a.bs === b.bs) return Math.max(scoreDigests(a.first, b.first, a.bs), scoreDigests(a.second, b.second, a.bs * 2))
  if (a.bs * 2 === b.bs) return scoreDigests(b.first, a.second, b.bs)
  if (b.bs * 2 === a.bs) return scoreDigests(a.first, b.second, a.bs)
  return 0
}
