/**
 * The tag=value lists of DMARC (RFC 7489 §6.4), DKIM (RFC 6376 §3.2), MTA-STS and TLS-RPT TXT
 * records (RFC 8461 §3.1, RFC 8460 §3) and BIMI: `tag=value` pairs separated by `;`, white space
 * around both ignored, a trailing `;` allowed. Pure.
 */

export interface TagList {
  /** Tags in order of appearance, names lower-cased (values as written, trimmed). */
  readonly tags: ReadonlyArray<readonly [string, string]>
  readonly errors: ReadonlyArray<string>
}

export const parseTags = (record: string): TagList => {
  const tags: Array<readonly [string, string]> = []
  const errors: Array<string> = []
  const seen = new Set<string>()
  for (const raw of record.split(";")) {
    const part = raw.trim()
    if (part === "") continue
    const eq = part.indexOf("=")
    if (eq <= 0) {
      errors.push(`malformed tag "${part}" (expected tag=value)`)
      continue
    }
    const name = part.slice(0, eq).trim().toLowerCase()
    const value = part.slice(eq + 1).trim()
    if (!/^[a-z][a-z0-9_]*$/.test(name)) {
      errors.push(`malformed tag name "${name}"`)
      continue
    }
    // RFC 6376 §3.2 and RFC 7489 §6.4: a tag appearing twice makes the record invalid.
    if (seen.has(name)) errors.push(`tag ${name} appears more than once`)
    seen.add(name)
    tags.push([name, value])
  }
  return { tags, errors }
}

export const tagValue = (t: TagList, name: string): string | undefined => t.tags.find(([n]) => n === name)?.[1]

/** Records of a TXT set that start with `v=<version>` (the version tag must come first). */
export const versioned = (records: ReadonlyArray<string>, version: string): ReadonlyArray<string> =>
  records.filter((r) => new RegExp(`^\\s*v\\s*=\\s*${version}\\s*(;|$)`, "i").test(r))

export const lowerHost = (h: string) => h.toLowerCase().replace(/\.$/, "")
