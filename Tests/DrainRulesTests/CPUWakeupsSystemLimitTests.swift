import DrainReport
import DrainRules
import DrainTrace
import Testing

/// CPU-WAKEUPS at its default system limit: 150 wakeups/s sustained over 300 s, the
/// wakeups resource exception of Apple's resource reports.
@Suite struct CPUWakeupsSystemLimitTests {
    let id = "CPU-WAKEUPS"

    /// `count` wakeups evenly over `[0, 300)`, in a 600 s run.
    func storm(_ count: Int) -> [Finding] {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        for index in 0..<count { run.wakeup(Double(index) * 300 / Double(count), reason: "interrupt", source: "spin") }
        return evaluate(run.build(end: 600)).findings(of: id)
    }

    @Test func fortyFiveThousandWakeupsInFiveMinutesAreAtTheLimitNotOverIt() {
        // 150/s × 300 s = 45,000: at the limit, not above it (the average still warns).
        let findings = storm(45_000)
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func oneMoreIsAnError() throws {
        let error = try #require(storm(45_001).first { $0.severity == .error })
        #expect(error.number("wakeups in window") == 45_001)
        #expect(error.number("window") == 300)
        #expect(error.number("limit") == 150)
        #expect(abs((error.number("window rate") ?? 0) - 45_001.0 / 300) < 1e-9)
    }
}
