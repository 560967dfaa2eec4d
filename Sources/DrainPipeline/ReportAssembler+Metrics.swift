import DrainAggregate
import DrainModel
import DrainReport
import DrainTrace

/// The `metrics` block and the active duration: per-run figures by stable name, each with its
/// unit and, for additive figures, its rate per active hour (`docs/reports.md` lists them).
extension ReportAssembler {
    /// The run's length less its time gaps (nothing was recorded then).
    var activeDuration: Nanoseconds {
        max(0, end - timeline.gaps.total)
    }

    /// The report's `time_gaps`: every gap and the inputs' backward time jumps, or `nil` when
    /// the run had neither.
    var timeGapSummary: TimeGapSummary? {
        let gaps = timeline.gaps, jumps = timeline.backwardJumps
        guard !gaps.isEmpty || jumps.count > 0 else { return nil }
        return TimeGapSummary(
            thresholdS: Clock.seconds(gaps.threshold),
            gaps: gaps.gaps.map {
                TimeGapSummary.Gap(startS: Clock.seconds($0.start), endS: Clock.seconds($0.end), lengthS: Clock.seconds($0.length))
            },
            backwardJumps: jumps.count, largestBackwardJumpS: jumps.count > 0 ? Clock.seconds(jumps.largest) : nil)
    }

    /// Every metric of the run. `activeS` divides the additive figures into rates per hour.
    func metrics(
        energy: EnergySummary, memory: MemorySummary, radio: RadioSummary, findings: [Finding], tally: RunTally, activeS: Double
    ) -> [String: ReportMetric] {
        let hours = activeS / 3_600
        var metrics: [String: ReportMetric] = [:]
        func additive(_ name: String, _ value: Double, _ unit: String) {
            metrics[name] = ReportMetric(value: value, unit: unit, perHour: hours > 0 ? value / hours : nil)
        }
        func level(_ name: String, _ value: Double, _ unit: String) {
            metrics[name] = ReportMetric(value: value, unit: unit)
        }

        additive("energy.total_j", energy.totalJ, "J")
        for category in EnergyCategory.allCases {
            additive("energy.by_category.\(category.name)", energy.byCategory[category.name] ?? 0, "J")
        }
        level("energy.average_mw", activeS > 0 ? energy.totalJ / activeS * 1_000 : 0, "mW")
        level("energy.battery_pct_per_hour", batteryPercentPerHour(joules: energy.totalJ, activeS: activeS), "%/h")

        let backgroundS = Clock.seconds(tally.backgroundTime)
        let foregroundS = max(0, activeS - backgroundS)
        additive("wakeups.count", Double(tally.foregroundWakeups + tally.backgroundWakeups), "count")
        level("wakeups.per_s", rate(tally.foregroundWakeups + tally.backgroundWakeups, over: activeS), "/s")
        level("wakeups.foreground_per_s", rate(tally.foregroundWakeups, over: foregroundS), "/s")
        level("wakeups.background_per_s", rate(tally.backgroundWakeups, over: backgroundS), "/s")

        additive("radio.promotions", Double(radio.promotions), "count")
        for state in radio.states { additive("radio.time_s.\(state.link).\(state.state)", state.timeS, "s") }

        for link in [LinkKind.cellular, .wifi, .ethernet, .loopback] {
            additive("network.\(link.traceName).bytes_up", Double(tally.traffic(link).up), "B")
            additive("network.\(link.traceName).bytes_down", Double(tally.traffic(link).down), "B")
        }

        additive("disk.writes", Double(tally.diskWrites), "count")
        additive("disk.bytes_written", Double(tally.diskBytesWritten), "B")

        if let peak = memory.peakBytes { level("memory.peak_bytes", peak, "B") }
        if !tally.memorySamples.isEmpty { level("memory.p95_bytes", Aggregate.percentiles(tally.memorySamples, [95])[0], "B") }

        for severity in Severity.allCases {
            additive("findings.\(severity.rawValue)", Double(findings.filter { $0.severity == severity }.count), "count")
        }
        return metrics
    }

    private func rate(_ count: Int, over seconds: Double) -> Double {
        seconds > 0 ? Double(count) / seconds : 0
    }

    private func batteryPercentPerHour(joules: Double, activeS: Double) -> Double {
        let capacity = model.battery.capacityWh.value
        guard activeS > 0, capacity > 0 else { return 0 }
        return joules / activeS / capacity * 100
    }
}
