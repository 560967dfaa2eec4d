@testable import DrainGate
import Foundation
import Testing

@Suite struct GateJSONRendererTests {
    @Test func writesSortedPrettyJSONWithUnescapedSlashesAndAFinalNewline() throws {
        let verdict = GateVerdict(
            gateVersion: 1, generator: "drain 0.9.0", scenario: "cold/start", model: "phone-lte", runs: 1, baselineRuns: nil,
            baselineGit: nil, baselineHost: nil, warnings: ["one run/one side"],
            checks: [
                GateCheck(
                    id: "budget:energy.total_j", kind: .budget, subject: "energy.total_j", status: .pass, expected: "≤ 12 J",
                    found: "11.5 J", unit: "J", value: 11.5, runs: [11.5], regression: nil, energyImpactJ: 0, note: nil)
            ],
            outcome: .pass, exitCode: 0)
        let expected = """
            {
              "checks" : [
                {
                  "energy_impact_j" : 0,
                  "expected" : "≤ 12 J",
                  "found" : "11.5 J",
                  "id" : "budget:energy.total_j",
                  "kind" : "budget",
                  "runs" : [
                    11.5
                  ],
                  "status" : "pass",
                  "subject" : "energy.total_j",
                  "unit" : "J",
                  "value" : 11.5
                }
              ],
              "exit_code" : 0,
              "gate_version" : 1,
              "generator" : "drain 0.9.0",
              "model" : "phone-lte",
              "outcome" : "pass",
              "runs" : 1,
              "scenario" : "cold/start",
              "warnings" : [
                "one run/one side"
              ]
            }

            """
        #expect(try GateJSONRenderer().render(verdict) == expected)
    }

    @Test(arguments: ["realistic", "hostile"])
    func decodesBackToTheSameVerdict(fixture: String) throws {
        let verdict = fixture == "hostile" ? GateVerdictFixture.hostile : GateVerdictFixture.realistic
        let json = try GateJSONRenderer().render(verdict)
        #expect(try JSONDecoder().decode(GateVerdict.self, from: Data(json.utf8)) == verdict)
        #expect(try GateJSONRenderer().render(verdict) == json)
        #expect(json.hasSuffix("}\n"))
    }

    @Test func refusesANonFiniteNumberNamingWhereItIs() {
        func refusal(_ verdict: GateVerdict) -> String? {
            do {
                _ = try GateJSONRenderer().render(verdict)
                return nil
            } catch {
                return error.description
            }
        }
        var verdict = GateVerdictFixture.realistic
        verdict.checks[0].energyImpactJ = .nan
        #expect(refusal(verdict) == "a number to write is not finite (NaN or infinite) at checks[0].energy_impact_j")
        verdict.checks[0].energyImpactJ = 1.5
        verdict.checks[0].regression?.baselineRuns[1] = -.infinity
        #expect(refusal(verdict) == "a number to write is not finite (NaN or infinite) at checks[0].regression.baseline_runs[1]")
    }
}
