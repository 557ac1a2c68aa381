/**
 * The OpenSPF RFC 7208 conformance suite (release 2014.04, 203 tests), each test run through
 * checkHost over its scenario's zone data. A test passes when the result is one the suite allows
 * and, where the suite gives one, the explanation matches; "DEFAULT" means no exp= text applied.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import path from "node:path"
import { checkHost } from "../../../../src/analyses/mail/spf/checkHost"
import { type Zone, zoneDns } from "./zoneDns"

interface SuiteTest {
  readonly helo: string
  readonly host: string
  readonly mailfrom: string
  readonly result: string | ReadonlyArray<string>
  readonly explanation?: string
}
interface Scenario {
  readonly description: string
  readonly tests: Readonly<Record<string, SuiteTest>>
  readonly zonedata: Zone
}

const file = path.join(import.meta.dir, "../../../../../shared/conformance/spf/rfc7208-tests.yml")
const scenarios = Bun.YAML.parse(await Bun.file(file).text()) as Array<Scenario>
const total = scenarios.reduce((n, s) => n + Object.keys(s.tests).length, 0)
let passed = 0

afterAll(() => console.log(`RFC 7208 suite: ${passed}/${total}`))

test("the suite file holds the 203 tests of release 2014.04", () => expect(total).toBe(203))

for (const scenario of scenarios) {
  describe(scenario.description, () => {
    for (const [id, t] of Object.entries(scenario.tests)) {
      test(id, async () => {
        const { dns } = zoneDns(scenario.zonedata)
        // RFC 7208 §2.4: with an empty MAIL FROM the HELO identity is checked as postmaster@helo.
        const sender = t.mailfrom === "" ? `postmaster@${t.helo}` : t.mailfrom
        const domain = sender.slice(sender.lastIndexOf("@") + 1)
        const got = await Effect.runPromise(
          checkHost(dns, { ip: t.host, domain, sender, helo: t.helo, receiver: "receiver.example", now: 0 })
        )
        const allowed = typeof t.result === "string" ? [t.result] : t.result
        expect(allowed).toContain(got.result)
        if (t.explanation !== undefined) {
          expect(got.explanation).toBe(t.explanation === "DEFAULT" ? undefined : t.explanation)
        }
        passed++
      })
    }
  })
}
