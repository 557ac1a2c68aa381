/**
 * Web similarity: our ssdeep digests and scores held to the `ssdeep` program (Debian's ssdeep
 * 2.14, the library dnstwist's --ssdeep calls) input by input and pair by pair, then the page
 * measure on real-looking pages: identical, a phishing copy, small edits, an unrelated page.
 */
import { describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { metaRefreshTarget, normalizePage, pageDigest, webSimilarity } from "../../../src/analyses/lookalikes/similarity"
import { fuzzyCompare, fuzzyHash } from "../../../src/analyses/lookalikes/ssdeep"
import { tempDir } from "../../support/tmp"

const page = (name: string) => readFileSync(join(import.meta.dir, "pages", name), "utf8")
const BANK = page("bank.html")
const RECIPES = page("recipes.html")

/** Deterministic pseudo-random numbers (mulberry32), so every run hashes the same inputs. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const WORDS = "the of and to in is for on that with as by this from at are be or an it was which page account bank secure login money card help".split(" ")
const text = (seed: number, bytes: number) => {
  const r = random(seed)
  let s = ""
  while (s.length < bytes) s += WORDS[Math.floor(r() * WORDS.length)] + (r() < 0.1 ? ".\n" : " ")
  return s.slice(0, bytes)
}
const noise = (seed: number, bytes: number) => {
  const r = random(seed)
  return Uint8Array.from({ length: bytes }, () => Math.floor(r() * 256))
}
/** `s` with a run of characters replaced every `every` characters (an edited copy). */
const edited = (s: string, every: number) => s.replace(new RegExp(`(.{${every - 5}})(.{5})`, "gs"), "$1XXXXX")

describe("ssdeep digests and scores equal the ssdeep program's", () => {
  const dir = tempDir("ssdeep-")
  const inputs: Record<string, Uint8Array> = {
    "hello.txt": new TextEncoder().encode("hello world\n"),
    "zeros.bin": new Uint8Array(300),
    "noise-100.bin": noise(1, 100),
    "noise-5000.bin": noise(2, 5000),
    "noise-70000.bin": noise(3, 70_000),
    "text-800.txt": new TextEncoder().encode(text(4, 800)),
    "text-3000.txt": new TextEncoder().encode(text(5, 3000)),
    "text-3000-edited.txt": new TextEncoder().encode(edited(text(5, 3000), 400)),
    "text-5000.txt": new TextEncoder().encode(text(5, 5000)),
    "text-40000.txt": new TextEncoder().encode(text(6, 40_000)),
    "text-40000-edited.txt": new TextEncoder().encode(edited(text(6, 40_000), 3000)),
    "bank.html": new TextEncoder().encode(BANK),
    "bank-normalized.html": new TextEncoder().encode(normalizePage(BANK)),
    "recipes.html": new TextEncoder().encode(RECIPES)
  }
  for (const [name, bytes] of Object.entries(inputs)) writeFileSync(join(dir, name), bytes)
  const files = Object.keys(inputs)

  test("digests", () => {
    const r = spawnSync("ssdeep", ["-s", "-b", ...files], { cwd: dir, encoding: "utf8" })
    expect(r.status).toBe(0)
    const theirs = new Map(r.stdout.split("\n").slice(1).filter((l) => l !== "").map((l) => {
      const [digest, name] = l.split(",")
      return [JSON.parse(name) as string, digest]
    }))
    expect(theirs.size).toBe(files.length)
    for (const f of files) expect({ f, digest: fuzzyHash(inputs[f]) }).toEqual({ f, digest: theirs.get(f)! })
  })

  test("scores of every pair", () => {
    const r = spawnSync("ssdeep", ["-s", "-b", "-a", "-d", ...files], { cwd: dir, encoding: "utf8" })
    expect(r.status).toBe(0)
    const pairs = r.stdout.split("\n").filter((l) => l !== "").map((l) => /^(\S+) matches (\S+) \((\d+)\)$/.exec(l)!)
    expect(pairs.length).toBe((files.length * (files.length - 1)) / 2)
    let positive = 0
    for (const [, a, b, score] of pairs) {
      expect({ a, b, score: fuzzyCompare(fuzzyHash(inputs[a]), fuzzyHash(inputs[b])) }).toEqual({ a, b, score: Number(score) })
      if (Number(score) > 0) positive++
    }
    // Not all zero: the edited copies and a longer text at twice the block size score.
    expect(positive).toBeGreaterThanOrEqual(3)
  })

  test("malformed digests are refused, block sizes more than double apart score 0", () => {
    expect(fuzzyCompare("nonsense", "3:abc:def")).toBeNull()
    expect(fuzzyCompare("3:abcdefgh:abc", "12:abcdefgh:abc")).toBe(0)
    expect(fuzzyCompare("3:abcdefgh:abc", "3:abcdefgh:abc")).toBe(100)
  })
})

describe("page normalisation (dnstwist's)", () => {
  test.each([
    ["<a  href=\"https://x.example/a\">\n\tx</a>", "<a href=\"\"> x</a>"],
    ["<form ACTION=\"/login\" method=\"post\"><img data-src=\"a.png\" src=\"b.png\">", "<form ACTION=\"\" method=\"post\"><img data-src=\"\" src=\"\">"],
    ["<div style=\"background: url(/a/b.jpg) no-repeat\">", "<div style=\"background: url() no-repeat\">"],
    ["<a href=\"\">empty stays</a>", "<a href=\"\">empty stays</a>"],
    ["  lead\r\n and trail  ", "lead and trail"]
  ])("%j", (html, normal) => {
    expect(normalizePage(html)).toBe(normal)
  })
})

describe("web similarity of two pages", () => {
  // A phishing copy: saved and re-served elsewhere, every link and the form pointing to the
  // copier's host, reflowed, one line of the title changed.
  const phish = BANK.replaceAll("https://secure.northwind-bank.example/login", "https://collect.example.net/p.php")
    .replaceAll("href=\"/", "href=\"https://northwind-bank.example/")
    .replaceAll("src=\"/", "src=\"https://northwind-bank.example/")
    .replace(/\n\s+/g, "\n")
    .replace("Online Banking, Savings and Loans", "Secure Online Banking Login")
  const smallEdits = BANK.replace("No monthly fee when you pay in at least 500 each month.", "No monthly fee.")
    .replace("seven days a week", "every day")
    .replace("Earn cashback on everyday spending", "Earn rewards on spending")

  test.each([
    ["identical", BANK, BANK, 100, 100],
    ["a phishing copy", BANK, phish, 80, 100],
    ["a copy with small edits", BANK, smallEdits, 80, 99],
    ["an unrelated page", BANK, RECIPES, 0, 20]
  ])("%s", (_, a, b, min, max) => {
    const s = webSimilarity(a, b)!
    expect(s).toBeGreaterThanOrEqual(min)
    expect(s).toBeLessThanOrEqual(max)
    expect(webSimilarity(b, a)).toBe(s)
  })

  test("the edited copies differ from the page (the measure is not fooled into 100)", () => {
    expect(pageDigest(smallEdits)).not.toBe(pageDigest(BANK))
    expect(pageDigest(phish)).not.toBe(pageDigest(BANK))
  })

  test.each([
    ["an empty page", "", BANK],
    ["a page of whitespace", " \n\t ", BANK],
    ["no page", null, BANK],
    ["no page on the other side", BANK, null]
  ])("%s is null", (_, a, b) => {
    expect(webSimilarity(a, b)).toBeNull()
  })
})

describe("meta refresh stubs (followed before hashing, as dnstwist does)", () => {
  const stub = (url: string) => `<html><head><meta http-equiv="refresh" content="0; url=${url}"></head><body></body></html>`
  test.each([
    [stub("https://www.example.com/home"), "https://www.example.com/home"],
    [stub("/relative/path"), null],
    ["<meta http-equiv=refresh>", null],
    [stub("https://x.example/") + " ".repeat(1200), null]
  ])("%#", (html, target) => {
    expect(metaRefreshTarget(html)).toBe(target)
  })
})
