import DrainGate
import DrainReport
import DrainTestSupport

/// Reports for gate tests: the realistic fixture report with the metrics and findings a test
/// sets, everything else as it is.
enum GateFixture {
    static func run(
        totalJ: Double, memoryBytes: Double? = 150_000_000, wakeupsPerS: Double = 2, findings: [Finding] = [],
        model: String = "iphone-lte", activeS: Double = 120
    ) -> Report {
        var report = ReportFixture.realistic
        report.model.name = model
        report.activeDurationS = activeS
        report.metrics = [
            "energy.total_j": ReportMetric(value: totalJ, unit: "J", perHour: totalJ / activeS * 3_600),
            "energy.by_category.radio": ReportMetric(value: totalJ / 2, unit: "J", perHour: nil),
            "energy.average_mw": ReportMetric(value: totalJ / activeS * 1_000, unit: "mW"),
            "wakeups.per_s": ReportMetric(value: wakeupsPerS, unit: "/s"),
        ]
        if let memoryBytes { report.metrics["memory.peak_bytes"] = ReportMetric(value: memoryBytes, unit: "B") }
        report.findings = findings
        return report
    }

    static func finding(_ rule: String, _ severity: Severity, subject: String? = nil, energyJ: Double? = nil) -> Finding {
        Finding(
            rule: rule, area: .network, severity: severity, title: "\(rule) title", message: "m", evidence: [], energyJ: energyJ,
            timeRanges: [], fix: "f", guidance: "g", source: "s", subject: subject)
    }

    static func budget(_ yaml: String) throws -> Budget {
        try Budget.parse(yaml, path: "drain-budget.yml")
    }

    static func baseline(_ runs: [Report]) -> Baseline {
        Baseline(reports: runs, generator: "drain test", scenario: nil, git: nil, host: HostInfo(cpu: "CPU A", cores: 2))
    }

    static let options = GateOptions(generator: "drain test", host: HostInfo(cpu: "CPU A", cores: 2))
}
