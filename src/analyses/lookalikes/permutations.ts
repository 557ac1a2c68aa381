/**
 * The lookalike names of a domain (pure): every permutation dnstwist 20221213 makes with its
 * default options, under its fuzzer names, then our own fuzzers under theirs
 * (docs/operations/lookalikes.md). Each permutation is kept once, under the first fuzzer that
 * made it, in the fuzzers' order (dnstwist's rule), never the domain itself, and only when it is
 * a registrable host name (hostname.ts).
 *
 * The name is cut at its public suffix (the ICANN section of the public suffix list): the
 * fuzzers change the registrable label (`example` of `www.example.co.uk`), in its Unicode form for
 * an internationalized name; the labels to its left stay as they are.
 */
import { domainToUnicode } from "node:url"
import { parse } from "../../kernel/publicSuffix"
import { cyrillic, homoglyph } from "./fuzzers/glyphs"
import { joinName, plural, type Split, tldSwap, various } from "./fuzzers/structure"
import {
  addition,
  bitsquatting,
  hyphenation,
  insertion,
  omission,
  repetition,
  replacement,
  subdomain,
  transposition,
  vowelSwap
} from "./fuzzers/typos"
import { type HostName, hostName } from "./hostname"

export type { Split } from "./fuzzers/structure"
export { POPULAR_SUFFIXES } from "./fuzzers/structure"
export type { HostName } from "./hostname"

/** dnstwist's fuzzers in the order it runs them (which decides who keeps a repeated name). */
export const DNSTWIST_FUZZERS = [
  "addition",
  "bitsquatting",
  "cyrillic",
  "homoglyph",
  "hyphenation",
  "insertion",
  "omission",
  "repetition",
  "replacement",
  "subdomain",
  "transposition",
  "vowel-swap",
  "various"
] as const

/** Every fuzzer, in order: dnstwist's, then ours (ours run last, so they never take a name from one of dnstwist's). */
export const FUZZERS = [...DNSTWIST_FUZZERS, "plural", "tld-swap"] as const
export type FuzzerName = (typeof FUZZERS)[number]

export const isFuzzerName = (s: string): s is FuzzerName => (FUZZERS as ReadonlyArray<string>).includes(s)

export interface Permutation {
  readonly fuzzer: FuzzerName
  /** ASCII form (punycode for an internationalized name). */
  readonly domain: string
  /** Unicode form. */
  readonly unicode: string
}

export interface PermutationSet {
  /** The domain in both forms. */
  readonly domain: HostName
  readonly split: Split
  readonly permutations: ReadonlyArray<Permutation>
  /** How many permutations each fuzzer that ran kept (0 for a fuzzer that kept none). */
  readonly by_fuzzer: Readonly<Partial<Record<FuzzerName, number>>>
  /** Generation stopped at a bound (`max` kept, or four times as many names examined) before every fuzzer finished. */
  readonly truncated: boolean
}

/**
 * The default bound on permutations kept. Two rounds of glyph swaps grow with the square of the
 * label's swappable runs: about 1,700 names for `example`, 25,000 for a 26-letter label, and
 * past any practical size for a long label of one repeated letter (`aaaa…`: every run of it
 * swaps). The bound keeps one call's work finite whatever the input.
 */
export const MAX_PERMUTATIONS = 100_000

type LabelFuzzer = (label: ReadonlyArray<string>) => Iterable<string>

const onLabel = (f: LabelFuzzer) =>
  function* (s: Split): Iterable<string> {
    for (const label of f(Array.from(s.label))) yield joinName(s.subdomain, label, s.suffix)
  }

const RUN: Readonly<Record<FuzzerName, (s: Split) => Iterable<string>>> = {
  addition: onLabel(addition),
  bitsquatting: onLabel(bitsquatting),
  cyrillic: onLabel(cyrillic),
  homoglyph: onLabel(homoglyph),
  hyphenation: onLabel(hyphenation),
  insertion: onLabel(insertion),
  omission: onLabel(omission),
  repetition: onLabel(repetition),
  replacement: onLabel(replacement),
  subdomain: onLabel(subdomain),
  transposition: onLabel(transposition),
  "vowel-swap": onLabel(vowelSwap),
  various,
  plural,
  "tld-swap": tldSwap
}

/**
 * `domain` (ASCII, punycode or Unicode; any case; a trailing dot is ignored) cut into its parts,
 * or null when it is not a host name of at least two labels.
 */
export const splitDomain = (domain: string): { readonly name: HostName; readonly split: Split } | null => {
  const name = hostName(domain.trim().toLowerCase().replace(/\.$/, "").normalize("NFC"))
  if (name === null) return null
  const parts = parse(name.ascii)
  const suffix = parts.publicSuffix && parts.domainWithoutSuffix ? parts.publicSuffix : name.ascii.slice(name.ascii.lastIndexOf(".") + 1)
  const rest = name.ascii.slice(0, name.ascii.length - suffix.length - 1).split(".")
  const label = rest.pop()!
  return {
    name,
    split: { subdomain: rest.join("."), label: domainToUnicode(label), suffix }
  }
}

/**
 * The permutations of `domain` made by `fuzzers` (default: all, in `FUZZERS` order whatever order
 * they are given in), at most `max` of them; null when `domain` is not a host name of at least
 * two labels.
 */
export const permutations = (
  domain: string,
  fuzzers: ReadonlyArray<FuzzerName> = FUZZERS,
  max: number = MAX_PERMUTATIONS
): PermutationSet | null => {
  const cut = splitDomain(domain)
  if (cut === null) return null
  const { name, split } = cut
  const original = joinName(split.subdomain, split.label, split.suffix)
  // Repeats are judged on the name as made (dnstwist's rule) and, to be sure, on its ASCII form.
  const seen = new Set<string>([original])
  const seenAscii = new Set<string>([name.ascii])
  const out: Array<Permutation> = []
  const byFuzzer: Partial<Record<FuzzerName, number>> = {}
  const wanted = new Set(fuzzers)
  let budget = max * 4
  let truncated = false
  for (const fuzzer of FUZZERS) {
    if (!wanted.has(fuzzer) || truncated) continue
    let kept = 0
    for (const raw of RUN[fuzzer](split)) {
      if (out.length >= max || --budget < 0) {
        truncated = true
        break
      }
      if (seen.has(raw)) continue
      seen.add(raw)
      const host = hostName(raw)
      if (host === null || seenAscii.has(host.ascii)) continue
      seenAscii.add(host.ascii)
      out.push({ fuzzer, domain: host.ascii, unicode: host.unicode })
      kept++
    }
    byFuzzer[fuzzer] = kept
  }
  return { domain: name, split, permutations: out, by_fuzzer: byFuzzer, truncated }
}
