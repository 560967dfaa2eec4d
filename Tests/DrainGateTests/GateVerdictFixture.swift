@testable import DrainGate
import DrainTestSupport

/// Verdicts built by hand for the output tests: a realistic one with a check of every kind
/// and status, written as `Gate.evaluate` would (3 runs against 5 baseline runs), and a
/// hostile copy whose every string carries markup, separators, line breaks and escapes.
enum GateVerdictFixture {
    static let note3 = "with 3 runs on a side a difference cannot reach significance (p < 0.05 needs 4 runs per side)"

    static let realistic = GateVerdict(
        gateVersion: 1, generator: "drain 0.9.0", scenario: "cold-start", model: "phone-lte", runs: 3, baselineRuns: 5,
        baselineGit: GitRevision(commit: "0123456789abcdef0123456789abcdef01234567", branch: "main"),
        baselineHost: HostInfo(cpu: "Apple M2", cores: 8),
        warnings: [
            "the baseline was made on another machine (Apple M2, 8 cores) than these runs (Intel Xeon, 2 cores): energy measured by a recorder or probe depends on the CPU",
            "3 runs against 5 baseline runs: significance needs at least 4 runs per side",
        ],
        checks: [
            regression(
                "energy.by_category.radio", .fail, unit: "J", runs: [9.4, 9.5, 9.7], baselineRuns: [8.1, 7.9, 8, 8.2, 7.8],
                expected: "no increase beyond 0.8 J (max of 10 % of the baseline and 0.1 J)",
                found: "8 J → 9.5 J, Δ +1.5 J (+18.8 %), 95 % interval [+1.1 J, +1.9 J], p = 0.036", tolerance: 0.8,
                interval: (1.1, 1.9), p: 0.036, energyImpactJ: 1.5, note: note3),
            GateCheck(
                id: "budget:energy.total_j", kind: .budget, subject: "energy.total_j", status: .fail, expected: "≤ 12 J",
                found: "13.4 J (median of runs 13.1 J, 13.4 J, 14 J)", unit: "J", value: 13.4, runs: [13.1, 13.4, 14],
                regression: nil, energyImpactJ: 1.4, note: nil),
            GateCheck(
                id: "new:NET-PERIODIC:api.example.com", kind: .newFinding, subject: "NET-PERIODIC:api.example.com", status: .warn,
                expected: "not in the baseline", found: "in 3 of 3 runs, 0 of 5 baseline runs", unit: "", value: nil, runs: [],
                regression: nil, energyImpactJ: 0.6, note: nil),
            GateCheck(
                id: "budget:memory.peak_bytes", kind: .budget, subject: "memory.peak_bytes", status: .warn, expected: "≤ 150 MB",
                found: "181.2 MB (max of runs 175 MB, 181.2 MB, 178 MB)", unit: "B", value: 181_200_000,
                runs: [175_000_000, 181_200_000, 178_000_000], regression: nil, energyImpactJ: 0, note: nil),
            regression(
                "wakeups.count", .inconclusive, unit: "count", runs: [44, 46, 47], baselineRuns: [38, 40, 41, 39, 42],
                expected: "no increase beyond 5 (max of 10 % of the baseline and 5)",
                found: "40 → 46, Δ +6 (+15 %), 95 % interval [-1, +12], p = 0.071", tolerance: 5, interval: (-1, 12), p: 0.071,
                energyImpactJ: 0, note: note3),
            regression(
                "scores.energy", .improvement, unit: "score", runs: [70, 71, 73], baselineRuns: [61, 62, 63, 60, 64],
                expected: "no decrease beyond 6.2 (max of 10 % of the baseline and 1)",
                found: "62 → 71, Δ +9 (+14.5 %), 95 % interval [+7, +11], p = 0.036", tolerance: 6.2, interval: (7, 11), p: 0.036,
                energyImpactJ: 0,
                note: note3 + "; improved beyond the tolerance: save a new baseline (--save-baseline) to tighten it"),
            GateCheck(
                id: "resolved:DISK-SYNC:/var/db/app.sqlite", kind: .resolvedFinding, subject: "DISK-SYNC:/var/db/app.sqlite",
                status: .improvement, expected: "in the baseline", found: "in 0 of 3 runs, 5 of 5 baseline runs", unit: "",
                value: nil, runs: [], regression: nil, energyImpactJ: 0, note: nil),
            GateCheck(
                id: "budget:energy.average_mw", kind: .budget, subject: "energy.average_mw", status: .pass, expected: "≤ 150 mW",
                found: "112 mW (median of runs 110 mW, 112 mW, 115 mW)", unit: "mW", value: 112, runs: [110, 112, 115],
                regression: nil, energyImpactJ: 0, note: nil),
            GateCheck(
                id: "findings:CPU-POLLING", kind: .findings, subject: "CPU-POLLING", status: .pass, expected: "≤ 0 findings",
                found: "0 (median of runs 0, 0, 0)", unit: "count", value: 0, runs: [0, 0, 0], regression: nil, energyImpactJ: 0,
                note: nil),
            regression(
                "energy.total_j", .pass, unit: "J", runs: [13.1, 13.4, 14], baselineRuns: [12.2, 12.4, 12.5, 12.3, 12.6],
                expected: "no increase beyond 1.24 J (max of 10 % of the baseline and 0.1 J)",
                found: "12.4 J → 13.4 J, Δ +1 J (+8.06 %), 95 % interval [+0.6 J, +1.6 J], p = 0.036", tolerance: 1.24,
                interval: (0.6, 1.6), p: 0.036, energyImpactJ: 0, note: note3),
            GateCheck(
                id: "regression:memory.p95_bytes", kind: .regression, subject: "memory.p95_bytes", status: .skipped,
                expected: "no regression", found: "not measured in the baseline", unit: "B", value: nil,
                runs: [150_000_000, 152_000_000, 151_000_000], regression: nil, energyImpactJ: 0, note: nil),
        ],
        outcome: .fail, exitCode: 1)

    static func regression(
        _ metric: String, _ status: GateCheck.Status, unit: String, runs: [Double], baselineRuns: [Double], expected: String,
        found: String, tolerance: Double, interval: (Double, Double), p: Double, energyImpactJ: Double, note: String?
    ) -> GateCheck {
        let baseline = baselineRuns.sorted()[baselineRuns.count / 2], candidate = runs.sorted()[runs.count / 2]
        return GateCheck(
            id: "regression:\(metric)", kind: .regression, subject: metric, status: status, expected: expected, found: found,
            unit: unit, value: candidate, runs: runs,
            regression: RegressionDetail(
                baseline: baseline, baselineRuns: baselineRuns, candidate: candidate, delta: candidate - baseline,
                deltaShare: (candidate - baseline) / baseline, tolerance: tolerance, intervalLow: interval.0,
                intervalHigh: interval.1, pValue: p),
            energyImpactJ: energyImpactJ, note: note)
    }

    /// What a hostile capture, budget or baseline file could put in a string: markup that
    /// closes a script, an element, a CDATA section or an attribute, quotes, table and code
    /// syntax, the characters workflow commands escape, line breaks that would end a command,
    /// and terminal escapes (with the shared report payload's C1 CSI, BEL and bidi override).
    static let payload =
        "</script><img src=x onerror=alert(1)>]]> \"double\" 'single' | pipe | `tick` 100% a:b,c\r\n::error::x\n"
        + "\u{1B}[31mRED\u{1B}[0m" + ReportFixture.payload

    /// The realistic verdict with the payload appended to every string in it.
    static var hostile: GateVerdict {
        func h(_ text: String) -> String { text + payload }
        var verdict = realistic
        verdict.generator = h(verdict.generator)
        verdict.scenario = h(verdict.scenario ?? "")
        verdict.model = h(verdict.model)
        verdict.baselineGit = GitRevision(commit: h("0123456789ab"), branch: h("main"))
        verdict.baselineHost = HostInfo(cpu: h("Apple M2"), cores: 8)
        verdict.warnings = verdict.warnings.map(h)
        for index in verdict.checks.indices {
            verdict.checks[index].id = h(verdict.checks[index].id)
            verdict.checks[index].subject = h(verdict.checks[index].subject)
            verdict.checks[index].expected = h(verdict.checks[index].expected)
            verdict.checks[index].found = h(verdict.checks[index].found)
            verdict.checks[index].unit = h(verdict.checks[index].unit)
            verdict.checks[index].note = h(verdict.checks[index].note ?? "")
        }
        return verdict
    }

    /// The characters `String.neutralizing` replaces in the payload (ESC, BEL, C1 CSI, the
    /// bidi override) replaced by U+FFFD: how a string reads once escaped and parsed back.
    static func neutralized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { "\u{1B}\u{07}\u{9B}\u{202E}".unicodeScalars.contains($0) ? "\u{FFFD}" : $0 }))
    }

    /// `count` budget checks of `status` on `subject`, the energy at stake of the i-th being i J.
    static func many(_ count: Int, _ status: GateCheck.Status, subject: String = "energy.by_category.cpu") -> [GateCheck] {
        (0..<count).map { index in
            GateCheck(
                id: "budget:\(subject)#\(index)", kind: .budget, subject: subject, status: status, expected: "≤ 1 J",
                found: "\(index + 1) J", unit: "J", value: Double(index + 1), runs: [Double(index + 1)], regression: nil,
                energyImpactJ: Double(index), note: nil)
        }
    }
}
