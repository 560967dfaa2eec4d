import DrainReport
import DrainTestSupport
import DrainRender
import DrainTrace
import Testing

@Suite struct CSVReportRendererTests {
    static let tableNames = [
        "summary", "findings", "timeline", "breakdown", "endpoints", "bursts", "radio_states", "rules", "thresholds", "inputs",
        "diagnostics", "metrics", "limits", "metrickit",
    ]

    func table(_ name: String, of report: Report) throws -> [[String]] {
        let csv = try #require(CSVReportRenderer.tables(report).first { $0.name == name }?.csv)
        return try RFC4180Reader.records(csv)
    }

    func summaryValue(_ key: String, of report: Report) throws -> String {
        try #require(try table("summary", of: report).first { $0.first == key }?.last, "no summary row \(key)")
    }

    @Test func burstsTableHasOneRecordPerListedBurst() throws {
        let records = try table("bursts", of: ReportFixture.realistic)
        #expect(records.first == ["link", "start_s", "end_s", "endpoint", "endpoints", "bytes_up", "bytes_down", "events", "energy_j"])
        #expect(records.dropFirst().map { $0[3] } == ["api.example.com", "telemetry.example.net"])
        #expect(records[1] == ["cellular", "2.100", "3.400", "api.example.com", "2", "12000", "301200", "48", "11.900000"])
    }

    @Test(arguments: ReportFixture.names)
    func everyTableParsesWithAsManyFieldsPerRecordAsItsHeader(_ name: String) throws {
        let report = ReportFixture.named(name)
        let tables = CSVReportRenderer.tables(report)
        #expect(tables.map(\.name) == Self.tableNames)
        for (name, csv) in tables {
            let records = try RFC4180Reader.records(csv)
            let header = try #require(records.first, "\(name) has no header")
            for (index, record) in records.enumerated() {
                #expect(record.count == header.count, "\(name) record \(index) has \(record.count) fields, header \(header.count)")
            }
        }
    }

    @Test func metricsTableListsEveryMetricByNameWithUnitAndRatePerHour() throws {
        let records = try table("metrics", of: ReportFixture.realistic)
        #expect(records.first == ["metric", "value", "unit", "per_hour"])
        #expect(records.dropFirst().map { $0[0] } == ReportFixture.realistic.metrics.keys.sorted())
        // The fixture: 49.87 J over 120 s = 1,496.1 J per hour; power is a rate, so no per-hour value.
        #expect(records.first { $0[0] == "energy.total_j" } == ["energy.total_j", "49.87", "J", "1496.1"])
        #expect(records.first { $0[0] == "energy.average_mw" } == ["energy.average_mw", "415.583333333", "mW", ""])
    }

    /// A script reading `endpoints.csv` can tell a cut list from a short one: `limits` gives
    /// each list's limit, the rows there were, and whether rows were left out.
    @Test func limitsTableSaysWhichListsWereCut() throws {
        var report = ReportFixture.realistic
        report.limits.endpoints = ListLimit(limit: 5_000, total: 956_044)
        report.limits.bursts = ListLimit(limit: 5_000, total: 2)
        report.limits.threads = ListLimit(limit: nil, total: 40)
        report.limits.breakdown = ["radio": ListLimit(limit: 100, total: 100), "cpu": ListLimit(limit: 100, total: 101)]
        let records = try table("limits", of: report)
        #expect(records.first == ["list", "limit", "total", "cut"])
        let byList = Dictionary(uniqueKeysWithValues: records.dropFirst().map { ($0[0], Array($0.dropFirst())) })
        #expect(byList["endpoints"] == ["5000", "956044", "yes"])
        #expect(byList["bursts"] == ["5000", "2", "no"])
        #expect(byList["threads"] == ["", "40", "no"])
        #expect(byList["breakdown.cpu"] == ["100", "101", "yes"])
        #expect(byList["breakdown.radio"] == ["100", "100", "no"])
        #expect(records.dropFirst().map { $0[0] } == [
            "endpoints", "bursts", "radio_lane", "lifecycle", "marks", "threads", "breakdown.cpu", "breakdown.radio",
        ])
    }

    @Test func isDeterministic() {
        let first = CSVReportRenderer.tables(ReportFixture.realistic)
        let second = CSVReportRenderer.tables(ReportFixture.realistic)
        #expect(first.map(\.csv) == second.map(\.csv))
    }

    @Test func recordCountsFollowTheReport() throws {
        let report = ReportFixture.realistic
        #expect(try table("timeline", of: report).count == 1 + ReportFixture.binCount)
        #expect(try table("findings", of: report).count == 1 + report.findings.count)
        #expect(try table("rules", of: report).count == 1 + report.rules.count)
        #expect(try table("inputs", of: report).count == 1 + report.inputs.count)
        // One record per diagnostic entry: 1 for the capture, 2 for the trace.
        #expect(try table("diagnostics", of: report).count == 1 + 3)
    }

    @Test func summaryHoldsTheTotalsWithFixedDecimals() throws {
        let report = ReportFixture.realistic
        // 49.87 J over 120 s: 415.583… mW average; 49.87 / 3.6 = 13.852… mWh.
        #expect(try summaryValue("energy_total_j", of: report) == "49.870000")
        #expect(try summaryValue("energy_average_mw", of: report) == "415.583")
        #expect(try summaryValue("energy_mwh", of: report) == "13.852778")
        // 0.415583 W / 12.7 Wh × 100 = 3.27 %/h.
        #expect(try summaryValue("battery_pct_per_hour", of: report) == "3.27")
        #expect(try summaryValue("energy_radio_j", of: report) == "43.920000")
        #expect(try summaryValue("energy_display_j", of: report) == "0.000000")
        // Bin 59 has no sample (59 mod 7 = 3), so the peak is bin 58's 180 MB + 58 × 2 MB =
        // 296 MB; share 296e6 / 3e9 = 0.098667.
        #expect(try summaryValue("memory_peak_bytes", of: report) == "296000000")
        #expect(try summaryValue("memory_peak_share_of_limit", of: report) == "0.0987")
        // Guidance: network 83.33, cpu 66.67, disk 100, memory 75, lifecycle 100 → 85.
        #expect(try summaryValue("score_guidance", of: report) == "85.00")
        #expect(try summaryValue("score_cpu", of: report) == "66.67")
        #expect(try summaryValue("score_display", of: report) == "")
        #expect(try summaryValue("findings_error", of: report) == "1")
    }

    @Test func timelineRowsCarryEachCategoryAndTheirSum() throws {
        let records = try table("timeline", of: ReportFixture.realistic)
        #expect(records[0] == [
            "bin", "start_s", "end_s", "cpu_j", "radio_j", "disk_j", "polling_j", "display_j", "location_j", "sensors_j", "total_j",
            "memory_peak_bytes",
        ])
        // Bin 10: cpu 0.05 + 0.4 launch, disk 0.01 (every 5th bin), no radio (bursts at 0 and
        // 15), no memory sample (10 mod 7 = 3).
        #expect(records[11] == ["10", "20.000", "22.000", "0.450000", "0.000000", "0.010000", "0.000000", "0.000000", "0.000000", "0.000000", "0.460000", ""])
        // Bin 3 is in the tail of the burst at bin 0.
        #expect(records[4][4] == "2.120000")
        // Bin 12: 180 MB + 12 × 2 MB.
        #expect(records[13][11] == "204000000")
    }

    @Test func findingsFlattenEvidenceAndTimeRanges() throws {
        let records = try table("findings", of: ReportFixture.realistic)
        let header = records[0]
        let periodic = try #require(records.first { $0.first == "NET-PERIODIC" })
        let column = { (name: String) in periodic[header.firstIndex(of: name)!] }
        #expect(column("evidence") == "endpoint=api.example.com; period=30 s; bursts=4; bytes=1253000 B; promotion_tail_energy=37.518 J")
        #expect(column("time_ranges") == "0.000..11.620; 30.000..41.620; 60.000..71.620; 90.000..101.620")
        #expect(column("energy_j") == "37.518000")
        let growth = try #require(records.first { $0.first == "MEM-GROWTH" })
        #expect(growth[header.firstIndex(of: "energy_j")!] == "")
    }

    @Test func hostileTextComesBackExactlyThroughQuoting() throws {
        let report = ReportFixture.hostileReport
        let inputs = try table("inputs", of: report)
        #expect(inputs[1][0] == report.inputs[0].path)
        #expect(inputs[2][4] == report.inputs[1].process)
        let diagnostics = try table("diagnostics", of: report)
        #expect(diagnostics[1][3] == report.inputs[0].diagnostics[0].message)
        let endpoints = try table("endpoints", of: report)
        #expect(endpoints.dropFirst().map(\.first) == report.endpoints.map(\.endpoint))
    }

    @Test func textThatASpreadsheetWouldEvaluateIsPrefixedWithAQuote() throws {
        var report = ReportFixture.realistic
        let keys = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tlead", "\rlead", "safe=1", "'quoted"]
        report.breakdown = keys.map { KeyEnergy(category: "cpu", key: $0, energyJ: -0.5, entries: 1) }
        report.inputs[0].offsetS = -0.25
        let breakdown = try table("breakdown", of: report)
        #expect(breakdown.dropFirst().map { $0[1] } == [
            "'=HYPERLINK(\"http://x\")", "'+1+1", "'-2+3", "'@SUM(A1)", "'\tlead", "'\rlead", "safe=1", "'quoted",
        ])
        // Numbers the renderer wrote are never prefixed, even when negative.
        #expect(breakdown.dropFirst().allSatisfy { $0[2] == "-0.500000" })
        #expect(try table("inputs", of: report)[1][5] == "-0.250")
    }

    @Test func usesCRLFAndQuotesOnlyWhereNeeded() throws {
        var report = ReportFixture.realistic
        report.endpoints = [
            EndpointSummary(endpoint: "a,b \"c\"\nd", bytesUp: 1, bytesDown: 2, bursts: 3, connections: 4, energyJ: 5),
            EndpointSummary(endpoint: "239.255.255.250", bytesUp: 6, bytesDown: 0, bursts: 1, connections: 1, energyJ: 0.5, local: true),
        ]
        let csv = try #require(CSVReportRenderer.tables(report).first { $0.name == "endpoints" }?.csv)
        #expect(csv == "endpoint,bytes_up,bytes_down,bursts,connections,energy_j,local\r\n\"a,b \"\"c\"\"\nd\",1,2,3,4,5.000000,no\r\n"
            + "239.255.255.250,6,0,1,1,0.500000,yes\r\n")
    }
}
