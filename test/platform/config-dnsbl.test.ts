/** DNSBL_IP_ZONES, DNSBL_DOMAIN_ZONES and DNSBL_TEST_TTL_S: parsed once, validated at start. */
import { describe, expect, test } from "bun:test"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { AppConfig, parseZoneList } from "../../src/platform/Config"

const load = (env: Record<string, string>) =>
  Effect.runPromiseExit(AppConfig.pipe(Effect.provide(AppConfig.Live.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))))

describe("DNSBL configuration", () => {
  test("defaults: the four IP lists and two domain lists of docs/configuration.md, verdicts kept an hour", async () => {
    const exit = await load({})
    expect(Exit.isSuccess(exit)).toBe(true)
    if (Exit.isSuccess(exit)) {
      expect(exit.value.dnsblIpZones).toEqual(["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org", "psbl.surriel.com"])
      expect(exit.value.dnsblDomainZones).toEqual(["dbl.spamhaus.org", "multi.surbl.org"])
      expect(exit.value.dnsblTestTtlS).toBe(3600)
    }
  })

  test("set: a comma list, trimmed, lower-cased, trailing dots dropped, duplicates once; empty names no list", async () => {
    const exit = await load({ DNSBL_IP_ZONES: " ZEN.lab. , bl.lab,zen.lab ", DNSBL_DOMAIN_ZONES: "", DNSBL_TEST_TTL_S: "0" })
    expect(Exit.isSuccess(exit) && exit.value.dnsblIpZones).toEqual(["zen.lab", "bl.lab"])
    expect(Exit.isSuccess(exit) && exit.value.dnsblDomainZones).toEqual([])
    expect(Exit.isSuccess(exit) && exit.value.dnsblTestTtlS).toBe(0)
  })

  test.each([
    [{ DNSBL_IP_ZONES: "zen.lab,not a zone" }, "DNSBL_IP_ZONES"],
    [{ DNSBL_DOMAIN_ZONES: "http://dbl.lab/" }, "DNSBL_DOMAIN_ZONES"],
    [{ DNSBL_IP_ZONES: "192.0.2.1" }, "DNSBL_IP_ZONES"],
    [{ DNSBL_TEST_TTL_S: "-1" }, "DNSBL_TEST_TTL_S must be 0-86400"],
    [{ DNSBL_TEST_TTL_S: "90000" }, "DNSBL_TEST_TTL_S must be 0-86400"]
  ])("%p stops the start with a message naming the variable", async (env, words) => {
    const exit = await load(env)
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain(words)
  })

  test.each([
    ["zen.spamhaus.org", ["zen.spamhaus.org"]],
    ["a.lab, b.lab", ["a.lab", "b.lab"]],
    ["localhost", '"localhost" is not a zone name (one label)'],
    ["zen.lab:53", '"zen.lab:53" is not a zone name'],
    [`${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(62)}`, "is longer than 189 octets"],
    [Array.from({ length: 21 }, (_, i) => `z${i}.lab`).join(","), "at most 20 zones"]
  ])("parseZoneList(%p)", (raw, expected) => {
    const out = parseZoneList(raw)
    if (typeof expected === "string") expect(out).toEqual(expect.stringContaining(expected))
    else expect(out).toEqual(expected)
  })
})
