/// Renders a verdict as a JUnit XML report, for the test reporters of GitHub, GitLab and
/// Jenkins: one test suite, one test case per check. A `fail` check is a failure; a `skipped`
/// one is skipped; `warn`, `inconclusive` and `improvement` checks pass with their details in
/// `<system-out>`. The verdict's warnings are the suite's `<system-out>`.
///
/// Only the elements and attributes of the common JUnit schema (Jenkins' `junit-10.xsd`)
/// are used, with `time="0"` since a check takes no time (and readers that parse `time`
/// then find a number).
public struct GateJUnitRenderer: Sendable {
    public init() {}

    /// The report, UTF-8 XML ending in a newline. Every string from the verdict is escaped
    /// (`XML.escape`), so a hostile finding key can neither end an element nor make the
    /// document ill-formed. Deterministic; O(size of the verdict).
    public func render(_ verdict: GateVerdict) -> String {
        let failures = verdict.checks.count(where: { $0.status == .fail })
        let skipped = verdict.checks.count(where: { $0.status == .skipped })
        let counts = "tests=\"\(verdict.checks.count)\" failures=\"\(failures)\" errors=\"0\""
        let suite = verdict.scenario.map { "drain gate: " + $0 } ?? "drain gate"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"drain gate\" \(counts) time=\"0\">\n"
        xml += "  <testsuite name=\"\(attribute(suite))\" \(counts) skipped=\"\(skipped)\" time=\"0\">\n"
        xml += "    <properties>\n"
        for (name, value) in properties(verdict) {
            xml += "      <property name=\"\(name)\" value=\"\(attribute(value))\"/>\n"
        }
        xml += "    </properties>\n"
        for check in verdict.presentedChecks {
            xml += testCase(check)
        }
        if !verdict.warnings.isEmpty {
            xml += "    <system-out>\(text(verdict.warnings.map { "warning: " + $0 }.joined(separator: "\n")))</system-out>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private func properties(_ verdict: GateVerdict) -> [(String, String)] {
        var properties = [("drain.model", verdict.model), ("drain.runs", String(verdict.runs))]
        if let baselineRuns = verdict.baselineRuns { properties.append(("drain.baseline_runs", String(baselineRuns))) }
        if let git = verdict.baselineGit {
            properties.append(("drain.baseline_commit", git.commit))
            if let branch = git.branch { properties.append(("drain.baseline_branch", branch)) }
        }
        if let source = verdict.baselineSource { properties.append(("drain.baseline_source", source)) }
        properties.append(("drain.outcome", verdict.outcome.rawValue))
        return properties
    }

    private func testCase(_ check: GateCheck) -> String {
        let open = "    <testcase classname=\"drain.gate.\(check.kind.rawValue)\" name=\"\(attribute(check.id))\" time=\"0\""
        switch check.status {
        case .pass:
            return open + "/>\n"
        case .fail:
            return open + ">\n      <failure message=\"\(attribute(check.statement))\" type=\"\(check.kind.rawValue)\">"
                + "\(text(check.details))</failure>\n    </testcase>\n"
        case .skipped:
            let reason = check.found + (check.note.map { "; " + $0 } ?? "")
            return open + ">\n      <skipped message=\"\(attribute(reason))\"/>\n    </testcase>\n"
        case .warn, .inconclusive, .improvement:
            return open + ">\n      <system-out>\(text(check.details))</system-out>\n    </testcase>\n"
        }
    }

    private func attribute(_ value: String) -> String { XML.escape(value, attribute: true) }

    private func text(_ value: String) -> String { XML.escape(value) }
}
