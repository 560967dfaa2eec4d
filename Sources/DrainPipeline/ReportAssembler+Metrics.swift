import DrainAggregate
import DrainModel
import DrainReport
import DrainTrace

/// The `metrics` block and the active duration: per-run figures by stable name, each with its
/// unit and, for additive figures, its rate per active hour (`docs/reports.md` lists them).
extension ReportAssembler {
    /// The run's length less every stretch longer than `Report.activityGapS` between two
    /// consecutive events (nothing was recorded then). O(n) over the sorted timeline.
    var activeDurationS: Double {
        let gap = Clock.nanoseconds(Report.activityGapS)
        var idle: Nanoseconds = 0
        var previous: Nanoseconds = 0
        for row in 0..<timeline.count {
            let time = timeline.time[row]
            if time - previous > gap { idle += time - previous }
            previous = max(previous, time)
        }
        return max(0, Clock.seconds(end - idle))
    }

    /// Every metric of the run. `activeS` divides the additive figures into rates per hour.
    func metrics(
        energy: EnergySummary, memory: MemorySummary, radio: RadioSummary, findings: [Finding], activeS: Double
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

        let wakeups = wakeupTally()
        additive("wakeups.count", Double(wakeups.foreground + wakeups.background), "count")
        level("wakeups.per_s", rate(wakeups.foreground + wakeups.background, over: activeS), "/s")
        level("wakeups.foreground_per_s", rate(wakeups.foreground, over: wakeups.foregroundS), "/s")
        level("wakeups.background_per_s", rate(wakeups.background, over: wakeups.backgroundS), "/s")

        additive("radio.promotions", Double(radio.promotions), "count")
        for state in radio.states { additive("radio.time_s.\(state.link).\(state.state)", state.timeS, "s") }

        let traffic = trafficByLink()
        for link in [LinkKind.cellular, .wifi, .ethernet, .loopback] {
            additive("network.\(link.traceName).bytes_up", Double(traffic[link]?.up ?? 0), "B")
            additive("network.\(link.traceName).bytes_down", Double(traffic[link]?.down ?? 0), "B")
        }

        let disk = diskWrites()
        additive("disk.writes", Double(disk.writes), "count")
        additive("disk.bytes_written", Double(disk.bytes), "B")

        if let peak = memory.peakBytes { level("memory.peak_bytes", peak, "B") }
        if let p95 = memoryPercentile(95) { level("memory.p95_bytes", p95, "B") }

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

    /// Wakeups (`wakeup`, `timer` and `poll` events: what the pricer charges a CPU wakeup
    /// for) and time in the foreground and in the background, as CPU-WAKEUPS counts them:
    /// `background` and `suspended` are background; everything else, time before the first
    /// lifecycle event and runs without one included, is foreground.
    private func wakeupTally() -> (foreground: Int, background: Int, foregroundS: Double, backgroundS: Double) {
        var foreground = 0
        var background = 0
        var inBackground = false
        var since: Nanoseconds = 0
        var backgroundTime: Nanoseconds = 0
        for row in 0..<timeline.count {
            switch timeline.kind[row] {
            case .wakeup, .timer, .poll:
                if inBackground { background += 1 } else { foreground += 1 }
            case .lifecycle:
                let state = LifecycleState(rawValue: timeline.code[row])
                let nowBackground = state == .background || state == .suspended
                guard nowBackground != inBackground else { continue }
                if inBackground { backgroundTime += timeline.time[row] - since } else { since = timeline.time[row] }
                inBackground = nowBackground
            default:
                continue
            }
        }
        if inBackground { backgroundTime += max(0, end - since) }
        let backgroundS = Clock.seconds(backgroundTime)
        return (foreground, background, max(0, Clock.seconds(end) - backgroundS), backgroundS)
    }

    /// Bytes each way per link; traffic of no stated link goes to the model's default link,
    /// as pricing does.
    private func trafficByLink() -> [LinkKind: (up: Int64, down: Int64)] {
        let defaultLink: LinkKind = model.radio.defaultLink == .wifi ? .wifi : .cellular
        var traffic: [LinkKind: (up: Int64, down: Int64)] = [:]
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            var link = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
            if link == .unspecified { link = defaultLink }
            let bytes = max(0, timeline.amount[row])
            var total = traffic[link] ?? (0, 0)
            if timeline.code[row] == NetDirection.tx.rawValue { total.up += bytes } else { total.down += bytes }
            traffic[link] = total
        }
        return traffic
    }

    /// `disk` write operations and the bytes they wrote.
    private func diskWrites() -> (writes: Int, bytes: Int64) {
        var writes = 0
        var bytes: Int64 = 0
        for row in 0..<timeline.count where timeline.kind[row] == .disk && timeline.code[row] == DiskOperation.write.rawValue {
            writes += 1
            bytes += max(0, timeline.amount[row])
        }
        return (writes, bytes)
    }

    /// The `p` percentile of the memory samples, or `nil` without samples.
    private func memoryPercentile(_ p: Double) -> Double? {
        var samples: [Double] = []
        for row in 0..<timeline.count where timeline.kind[row] == .memory { samples.append(Double(timeline.amount[row])) }
        return samples.isEmpty ? nil : Aggregate.percentiles(samples, [p])[0]
    }
}
