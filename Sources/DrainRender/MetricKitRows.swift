import DrainReport
import DrainTrace

/// The report's `metrickit` section as rows, one per value present, for the table renderers
/// (CSV, HTML, Markdown, terminal). Keys match the JSON section's keys; absent values make no
/// row (absent is not zero). Metadata strings come from the input and are escaped by each
/// renderer.
struct MetricKitRow {
    enum Value {
        case seconds(Double)
        case bytes(Double)
        case count(Double)
        case text(String)
    }

    var key: String
    var label: String
    var value: Value

    /// The value in machine units (seconds, bytes, counts), as the CSV writes it.
    var machineValue: String {
        switch value {
        case let .seconds(seconds): MachineNumber.seconds(seconds)
        case let .bytes(bytes): MachineNumber.bytes(bytes)
        case let .count(count): MachineNumber.compact(count)
        case let .text(text): text
        }
    }

    /// The unit of `machineValue`: `s`, `B`, `count`, or empty for text.
    var unit: String {
        switch value {
        case .seconds: "s"
        case .bytes: "B"
        case .count: "count"
        case .text: ""
        }
    }

    /// The value for people: `1.3 MB`, `700.000 s`, `30`.
    var displayValue: String {
        switch value {
        case let .seconds(seconds): DisplayNumber.time(seconds)
        case let .bytes(bytes): DisplayNumber.bytes(bytes)
        case let .count(count): MachineNumber.compact(count)
        case let .text(text): text
        }
    }

    /// Every value of `aggregates`, in a fixed order. O(diagnostics + exit reasons).
    static func rows(_ aggregates: MetricAggregates) -> [MetricKitRow] {
        var rows: [MetricKitRow] = []
        func add(_ key: String, _ label: String, _ value: Value?) {
            if let value { rows.append(MetricKitRow(key: key, label: label, value: value)) }
        }
        add("metric_payloads", "Metric payloads", .count(Double(aggregates.metricPayloads)))
        add("diagnostic_payloads", "Diagnostic payloads", .count(Double(aggregates.diagnosticPayloads)))
        add("metric_s", "Metric window", aggregates.metricSeconds.map(Value.seconds))
        for (name, value) in aggregates.metadata.fields { add("metadata." + name, name.replacingOccurrences(of: "_", with: " "), .text(value)) }
        add("cpu_time_s", "CPU time", aggregates.cpuTimeS.map(Value.seconds))
        add("cpu_instructions", "CPU instructions", aggregates.cpuInstructions.map(Value.count))
        add("gpu_time_s", "GPU time", aggregates.gpuTimeS.map(Value.seconds))
        add("foreground_time_s", "Foreground time", aggregates.foregroundTimeS.map(Value.seconds))
        add("background_time_s", "Background time", aggregates.backgroundTimeS.map(Value.seconds))
        add("background_audio_time_s", "Background audio time", aggregates.backgroundAudioTimeS.map(Value.seconds))
        add("background_location_time_s", "Background location time", aggregates.backgroundLocationTimeS.map(Value.seconds))
        add("wifi_up_bytes", "Wi-Fi upload", aggregates.wifiUpBytes.map(Value.bytes))
        add("wifi_down_bytes", "Wi-Fi download", aggregates.wifiDownBytes.map(Value.bytes))
        add("cellular_up_bytes", "Cellular upload", aggregates.cellularUpBytes.map(Value.bytes))
        add("cellular_down_bytes", "Cellular download", aggregates.cellularDownBytes.map(Value.bytes))
        add("logical_write_bytes", "Logical writes", aggregates.logicalWriteBytes.map(Value.bytes))
        add("peak_memory_bytes", "Peak memory", aggregates.peakMemoryBytes.map(Value.bytes))
        add("average_suspended_memory_bytes", "Average suspended memory", aggregates.averageSuspendedMemoryBytes.map(Value.bytes))
        for (key, label, histogram) in [
            ("launch_time", "Launches (time to first draw)", aggregates.launchTime),
            ("resume_time", "Resumes", aggregates.resumeTime), ("hang_time", "Hangs (histogram)", aggregates.hangTime),
        ] {
            guard let histogram else { continue }
            add(key + ".count", label, .count(Double(histogram.count)))
            add(key + ".max_s", label + ", highest bucket end", histogram.maximumS.map(Value.seconds))
        }
        for exit in aggregates.exits {
            add("exits.\(exit.reason).foreground", "\(exit.reason) exits, foreground", exit.foreground.map { .count(Double($0)) })
            add("exits.\(exit.reason).background", "\(exit.reason) exits, background", exit.background.map { .count(Double($0)) })
        }
        add("hangs", "Hang diagnostics", diagnosticCount(aggregates.hangs.count))
        add("hangs.max_duration_s", "Longest hang", aggregates.hangs.compactMap(\.durationS).max().map(Value.seconds))
        add("cpu_exceptions", "CPU exceptions", diagnosticCount(aggregates.cpuExceptions.count))
        add("cpu_exceptions.total_cpu_time_s", "CPU exceptions, CPU time", sum(aggregates.cpuExceptions.compactMap(\.totalCPUTimeS)).map(Value.seconds))
        add("disk_write_exceptions", "Disk-write exceptions", diagnosticCount(aggregates.diskWriteExceptions.count))
        add("disk_write_exceptions.writes_caused_bytes", "Disk-write exceptions, writes caused", sum(aggregates.diskWriteExceptions.compactMap(\.writesCausedBytes)).map(Value.bytes))
        add("crashes", "Crashes", diagnosticCount(aggregates.crashes.count))
        add("launches", "Launch diagnostics", diagnosticCount(aggregates.launches.count))
        return rows
    }

    private static func diagnosticCount(_ count: Int) -> Value? {
        count > 0 ? .count(Double(count)) : nil
    }

    private static func sum(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +)
    }
}
