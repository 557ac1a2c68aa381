/**
 * The typing-error fuzzers of dnstwist 20221213, each a function of the registrable label (as
 * an array of code points) to the labels it makes. Which edits each one makes is dnstwist's
 * (docs/operations/lookalikes.md); the caller joins the labels to the rest of the name,
 * removes repeats and invalid names. A label made here may hold a dot (`subdomain`) or start or
 * end with a hyphen: the caller's host-name check drops what cannot be registered.
 */
import { neighbours } from "./keyboards"

type Label = ReadonlyArray<string>

const join = (chars: ReadonlyArray<string>, from = 0, to = chars.length) => chars.slice(from, to).join("")

/** One letter or digit appended at the end: `example1`, `examplea`. */
export function* addition(label: Label): Iterable<string> {
  const base = join(label)
  for (let c = 0x30; c <= 0x39; c++) yield base + String.fromCharCode(c)
  for (let c = 0x61; c <= 0x7a; c++) yield base + String.fromCharCode(c)
}

const BITSQUAT_CHARS = new Set("abcdefghijklmnopqrstuvwxyz0123456789-")

/**
 * One bit flipped in one character, as a memory or transmission error would (bit-squatting):
 * only flips that give a letter, digit or hyphen.
 */
export function* bitsquatting(label: Label): Iterable<string> {
  for (let i = 0; i < label.length; i++) {
    const code = label[i].codePointAt(0)!
    for (let mask = 1; mask <= 128; mask <<= 1) {
      const flipped = String.fromCodePoint(code ^ mask)
      if (BITSQUAT_CHARS.has(flipped)) yield join(label, 0, i) + flipped + join(label, i + 1)
    }
  }
}

/** A hyphen between two characters: `exa-mple`. */
export function* hyphenation(label: Label): Iterable<string> {
  for (let i = 1; i < label.length; i++) yield join(label, 0, i) + "-" + join(label, i)
}

/**
 * A neighbouring key pressed with the intended one, before or after it; not at the first or the
 * last character (dnstwist's range).
 */
export function* insertion(label: Label): Iterable<string> {
  for (let i = 1; i < label.length - 1; i++) {
    const before = join(label, 0, i)
    const after = join(label, i + 1)
    for (const c of neighbours(label[i])) {
      yield before + c + label[i] + after
      yield before + label[i] + c + after
    }
  }
}

/** One character left out. */
export function* omission(label: Label): Iterable<string> {
  for (let i = 0; i < label.length; i++) yield join(label, 0, i) + join(label, i + 1)
}

/** One character typed twice. */
export function* repetition(label: Label): Iterable<string> {
  for (let i = 0; i < label.length; i++) yield join(label, 0, i) + label[i] + join(label, i)
}

/** One character replaced by a neighbouring key. */
export function* replacement(label: Label): Iterable<string> {
  for (let i = 0; i < label.length; i++) {
    for (const c of neighbours(label[i])) yield join(label, 0, i) + c + join(label, i + 1)
  }
}

/** A dot inside the label (`exa.mple.com`: a subdomain of `mple.com`), not next to a hyphen or a dot. */
export function* subdomain(label: Label): Iterable<string> {
  for (let i = 1; i < label.length - 1; i++) {
    if (label[i] !== "-" && label[i] !== "." && label[i - 1] !== "-" && label[i - 1] !== ".") {
      yield join(label, 0, i) + "." + join(label, i)
    }
  }
}

/** Two neighbouring characters swapped. */
export function* transposition(label: Label): Iterable<string> {
  for (let i = 0; i < label.length - 1; i++) yield join(label, 0, i) + label[i + 1] + label[i] + join(label, i + 2)
}

const VOWELS = ["a", "e", "i", "o", "u"]

/** One vowel replaced by another. */
export function* vowelSwap(label: Label): Iterable<string> {
  for (let i = 0; i < label.length; i++) {
    if (VOWELS.includes(label[i])) for (const v of VOWELS) yield join(label, 0, i) + v + join(label, i + 1)
  }
}
