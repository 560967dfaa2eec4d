import DrainTrace

/// Maps a parsed MetricKit document onto `MetricAggregates`, recording what it could not
/// read as diagnostics located by line and column.
///
/// A document is an `MXMetricPayload`, an `MXDiagnosticPayload` (one object may hold both
/// kinds of section), a bare diagnostic (`MXCrashDiagnostic`, `MXHangDiagnostic`…: an object
/// with `diagnosticMetaData`), or an array of those. A bare `MXCallStackTree` holds no metric
/// and is refused. Values that cannot be read become warnings and stay absent; unknown keys
/// are ignored and counted. O(n) in the document's values.
struct MetricKitPayloadReader {
    let path: String
    let text: LineLocator
    var aggregates = MetricAggregates()
    var diagnostics = ImportDiagnostics()

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.text = LineLocator(bytes)
    }

    /// Reads every payload of `document`.
    ///
    /// - Throws: `ImportError.badData` when the document is not a payload, a diagnostic or
    ///   an array of them (naming where the offending value starts).
    mutating func read(_ document: MetricKitJSON) throws(ImportError) {
        if let elements = document.array {
            guard !elements.isEmpty else { throw refusal(document, "the file is an empty JSON array: it holds no MetricKit payload") }
            for element in elements { try readPayload(element) }
        } else {
            try readPayload(document)
        }
    }

    private mutating func readPayload(_ json: MetricKitJSON) throws(ImportError) {
        guard let members = json.object else {
            throw refusal(json, "expected a MetricKit payload (a JSON object), found \(json.kindDescription)")
        }
        if members["diagnosticMetaData"] != nil {
            readBareDiagnostic(json)
            return
        }
        let metricSections = members.keys.filter { Self.metricSections.contains($0) }
        let diagnosticSections = members.keys.filter { Self.diagnosticSections.contains($0) }
        guard !metricSections.isEmpty || !diagnosticSections.isEmpty || members["timeStampBegin"] != nil else {
            if members["callStacks"] != nil || members["callStackPerThread"] != nil {
                throw refusal(
                    json,
                    "this is a bare MXCallStackTree (call stacks only, no metrics or diagnostics); give Drain the MXMetricPayload or MXDiagnosticPayload it came from (its jsonRepresentation())")
            }
            throw refusal(
                json,
                "a JSON object without any MetricKit payload key (timeStampBegin, cpuMetrics, crashDiagnostics, diagnosticMetaData…)")
        }
        let window = readWindow(members)
        if !metricSections.isEmpty || diagnosticSections.isEmpty {
            aggregates.metricPayloads += 1
            if let window { aggregates.metricSeconds = (aggregates.metricSeconds ?? 0) + window }
        }
        if !diagnosticSections.isEmpty { aggregates.diagnosticPayloads += 1 }
        if let version = members["appVersion"]?.string, aggregates.metadata.appVersion == nil {
            aggregates.metadata.appVersion = version
        }
        if let metaData = members["metaData"] { readMetadata(metaData) }
        // In file order, so that the first occurrence a diagnostic names is the first in the file.
        for (key, value) in members.sorted(by: { $0.value.offset < $1.value.offset }) {
            switch key {
            case "cpuMetrics": readCPU(value)
            case "gpuMetrics": aggregates.gpuTimeS = add(aggregates.gpuTimeS, measure(value["cumulativeGPUTime"], .duration, "cumulativeGPUTime"))
            case "applicationTimeMetrics": readApplicationTime(value)
            case "networkTransferMetrics": readNetwork(value)
            case "diskIOMetrics":
                aggregates.logicalWriteBytes = add(
                    aggregates.logicalWriteBytes, measure(value["cumulativeLogicalWrites"], .bytes, "cumulativeLogicalWrites"))
            case "memoryMetrics": readMemory(value)
            case "applicationLaunchMetrics": readLaunchMetrics(value)
            case "applicationResponsivenessMetrics":
                aggregates.hangTime = merge(aggregates.hangTime, histogram(value["histogrammedAppHangTime"]))
            case "applicationExitMetrics": readExits(value)
            case "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
                "appLaunchDiagnostics":
                readDiagnostics(key, value)
            case _ where Self.knownUnmappedKeys.contains(key): continue
            default: noteUnknownKey(key, at: value)
            }
        }
    }

    // MARK: Sections

    private mutating func readCPU(_ json: MetricKitJSON) {
        aggregates.cpuTimeS = add(aggregates.cpuTimeS, measure(json["cumulativeCPUTime"], .duration, "cumulativeCPUTime"))
        aggregates.cpuInstructions = add(
            aggregates.cpuInstructions, measure(json["cumulativeCPUInstructions"], .instructions, "cumulativeCPUInstructions"))
    }

    private mutating func readApplicationTime(_ json: MetricKitJSON) {
        func time(_ key: String) -> Double? { measure(json[key], .duration, key) }
        aggregates.foregroundTimeS = add(aggregates.foregroundTimeS, time("cumulativeForegroundTime"))
        aggregates.backgroundTimeS = add(aggregates.backgroundTimeS, time("cumulativeBackgroundTime"))
        aggregates.backgroundAudioTimeS = add(aggregates.backgroundAudioTimeS, time("cumulativeBackgroundAudioTime"))
        aggregates.backgroundLocationTimeS = add(aggregates.backgroundLocationTimeS, time("cumulativeBackgroundLocationTime"))
    }

    private mutating func readNetwork(_ json: MetricKitJSON) {
        func bytes(_ key: String) -> Double? { measure(json[key], .bytes, key) }
        aggregates.wifiUpBytes = add(aggregates.wifiUpBytes, bytes("cumulativeWifiUpload"))
        aggregates.wifiDownBytes = add(aggregates.wifiDownBytes, bytes("cumulativeWifiDownload"))
        aggregates.cellularUpBytes = add(aggregates.cellularUpBytes, bytes("cumulativeCellularUpload"))
        aggregates.cellularDownBytes = add(aggregates.cellularDownBytes, bytes("cumulativeCellularDownload"))
    }

    private mutating func readMemory(_ json: MetricKitJSON) {
        if let peak = measure(json["peakMemoryUsage"], .bytes, "peakMemoryUsage") {
            aggregates.peakMemoryBytes = max(aggregates.peakMemoryBytes ?? 0, peak)
        }
        guard let suspended = json["averageSuspendedMemory"] else { return }
        // An average object ({averageValue, standardDeviation, sampleCount}) or a plain value.
        let average = suspended.object == nil ? suspended : suspended["averageValue"]
        guard let value = measure(average, .bytes, "averageSuspendedMemory") else { return }
        var part = MetricAggregates()
        part.averageSuspendedMemoryBytes = value
        part.suspendedMemorySamples = count(suspended["sampleCount"], "sampleCount")
        aggregates.add(part)
    }

    private mutating func readLaunchMetrics(_ json: MetricKitJSON) {
        aggregates.launchTime = merge(aggregates.launchTime, histogram(json["histogrammedTimeToFirstDrawKey"]))
        aggregates.resumeTime = merge(aggregates.resumeTime, histogram(json["histogrammedResumeTime"]))
    }

    /// `foregroundExitData` / `backgroundExitData`: `cumulative<Reason>ExitCount` counts.
    private mutating func readExits(_ json: MetricKitJSON) {
        for (group, isForeground) in [("foregroundExitData", true), ("backgroundExitData", false)] {
            guard let members = json[group]?.object else { continue }
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                guard let reason = Self.exitReason(key) else {
                    noteUnknownKey(key, at: value)
                    continue
                }
                guard let exits = count(value, key) else { continue }
                aggregates.addExits(
                    MetricAggregates.ExitCount(
                        reason: reason, foreground: isForeground ? exits : nil, background: isForeground ? nil : exits))
            }
        }
    }

    /// "cumulativeMemoryResourceLimitExitCount" → "MemoryResourceLimit"; "cumulativeNormalAppExitCount" → "Normal".
    static func exitReason(_ key: String) -> String? {
        guard key.hasPrefix("cumulative"), key.hasSuffix("ExitCount") else { return nil }
        var reason = key.dropFirst("cumulative".count).dropLast("ExitCount".count)
        if reason.hasSuffix("App") { reason = reason.dropLast(3) }
        guard !reason.isEmpty, reason.utf8.allSatisfy({ ASCII.isDigit($0) || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A })
        else { return nil }
        return String(reason)
    }

    private mutating func readDiagnostics(_ key: String, _ json: MetricKitJSON) {
        guard let entries = json.array else {
            unexpected(json, key, "an array")
            return
        }
        for entry in entries {
            guard let metaData = entry["diagnosticMetaData"] else {
                unexpected(entry, key, "an object with diagnosticMetaData")
                continue
            }
            readMetadata(metaData)
            readDiagnostic(Self.diagnosticKind(forArray: key), metaData)
        }
    }

    /// A diagnostic outside a payload: its kind follows from the keys of its metadata.
    private mutating func readBareDiagnostic(_ json: MetricKitJSON) {
        aggregates.diagnosticPayloads += 1
        readWindow(json.object ?? [:])
        guard let metaData = json["diagnosticMetaData"], metaData.object != nil else {
            unexpected(json["diagnosticMetaData"] ?? json, "diagnosticMetaData", "an object")
            return
        }
        readMetadata(metaData)
        let kind: DiagnosticKind
        if metaData["hangDuration"] != nil {
            kind = .hang
        } else if metaData["totalCPUTime"] != nil {
            kind = .cpuException
        } else if metaData["writesCaused"] != nil {
            kind = .diskWriteException
        } else if metaData["launchDuration"] != nil {
            kind = .launch
        } else {
            kind = .crash
        }
        readDiagnostic(kind, metaData)
    }

    enum DiagnosticKind {
        case crash, hang, cpuException, diskWriteException, launch
    }

    private static func diagnosticKind(forArray key: String) -> DiagnosticKind {
        switch key {
        case "hangDiagnostics": .hang
        case "cpuExceptionDiagnostics": .cpuException
        case "diskWriteExceptionDiagnostics": .diskWriteException
        case "appLaunchDiagnostics": .launch
        default: .crash
        }
    }

    private mutating func readDiagnostic(_ kind: DiagnosticKind, _ metaData: MetricKitJSON) {
        switch kind {
        case .hang:
            aggregates.hangs.append(.init(durationS: measure(metaData["hangDuration"], .duration, "hangDuration")))
        case .cpuException:
            aggregates.cpuExceptions.append(
                .init(
                    totalCPUTimeS: measure(metaData["totalCPUTime"], .duration, "totalCPUTime"),
                    totalSampledTimeS: measure(metaData["totalSampledTime"], .duration, "totalSampledTime")))
        case .diskWriteException:
            aggregates.diskWriteExceptions.append(.init(writesCausedBytes: measure(metaData["writesCaused"], .bytes, "writesCaused")))
        case .launch:
            aggregates.launches.append(.init(durationS: measure(metaData["launchDuration"], .duration, "launchDuration")))
        case .crash:
            aggregates.crashes.append(
                .init(
                    exceptionType: count(metaData["exceptionType"], "exceptionType"),
                    exceptionCode: count(metaData["exceptionCode"], "exceptionCode"),
                    signal: count(metaData["signal"], "signal"), terminationReason: metaData["terminationReason"]?.string))
        }
    }

    private mutating func readMetadata(_ json: MetricKitJSON) {
        guard let members = json.object else {
            unexpected(json, "metaData", "an object")
            return
        }
        var found = MetricAggregates.Metadata()
        found.appVersion = members["appVersion"]?.string
        found.appBuildVersion = members["appBuildVersion"]?.string
        found.bundleIdentifier = members["bundleIdentifier"]?.string
        found.osVersion = members["osVersion"]?.string
        found.deviceType = members["deviceType"]?.string
        found.platformArchitecture = members["platformArchitecture"]?.string
        found.regionFormat = members["regionFormat"]?.string
        aggregates.metadata.fillGaps(from: found)
    }

    /// Reads `timeStampBegin`/`timeStampEnd` into the window; returns its length in seconds
    /// when both are readable.
    @discardableResult
    private mutating func readWindow(_ members: [String: MetricKitJSON]) -> Double? {
        let begin = timestamp(members["timeStampBegin"], "timeStampBegin")
        let end = timestamp(members["timeStampEnd"], "timeStampEnd")
        if let begin { aggregates.windowStart = min(aggregates.windowStart ?? begin, begin) }
        if let end { aggregates.windowEnd = max(aggregates.windowEnd ?? end, end) }
        guard let begin, let end else { return nil }
        guard end >= begin else {
            note(
                .warning, code: "reversed-window", message: "timeStampEnd is before timeStampBegin; the window's length was not used",
                at: members["timeStampEnd"]?.offset)
            return nil
        }
        // In Double: time stamps 292 years apart or more differ by more than an Int64.
        return (Double(end) - Double(begin)) / 1e9
    }

    // MARK: Values

    private mutating func timestamp(_ json: MetricKitJSON?, _ key: String) -> Int64? {
        guard let json else { return nil }
        guard let string = json.string, let stamp = MetricKitTimestamp(string) else {
            note(
                .warning, code: "bad-time-stamp",
                message: "\(key) \(Self.describe(json)) is not a time stamp of the form yyyy-MM-dd HH:mm:ss Z; it was ignored",
                at: json.offset)
            return nil
        }
        if !stamp.hasZone {
            note(
                .warning, code: "no-time-zone", message: "time stamp \(Self.describe(json)) has no time zone; it was read as UTC",
                at: json.offset)
        }
        return stamp.nanoseconds
    }

    /// A measurement in `dimension`'s base unit, or nil (with a warning when present but unreadable).
    private mutating func measure(_ json: MetricKitJSON?, _ dimension: MeasurementParser.Dimension, _ key: String) -> Double? {
        guard let json else { return nil }
        switch json.value {
        case let .number(number) where number.isFinite && number >= 0:
            note(
                .info, code: "unitless-value",
                message: "\(key) is a plain number without a unit; it was read as \(dimension.baseUnit)",
                at: json.offset)
            return number
        case let .string(string):
            switch MeasurementParser.value(string, as: dimension) {
            case let .success(value): return value
            case let .failure(failure):
                let why: String
                switch failure {
                case .noNumber: why = "it does not start with a number"
                case .noUnit: why = "it has no unit"
                case let .unknownUnit(unit): why = "\(UntrustedText.quoted(unit)) is not a unit of \(dimension.rawValue)"
                }
                note(
                    .warning, code: "unreadable-value",
                    message: "\(key) \(UntrustedText.quoted(string)) could not be read (\(why)); it was left out",
                    at: json.offset)
                return nil
            }
        default:
            unexpected(json, key, "a string with a unit")
            return nil
        }
    }

    /// A non-negative whole count, from a JSON number or a numeric string ("1,000").
    private mutating func count(_ json: MetricKitJSON?, _ key: String) -> Int? {
        guard let json else { return nil }
        let number: Double?
        switch json.value {
        case let .number(value): number = value
        case let .string(string): number = MeasurementParser.leadingNumber(string).flatMap { $0.1.isEmpty ? $0.0 : nil }
        default: number = nil
        }
        guard let number, number.isFinite, number >= 0, number < 9e15, number.rounded() == number else {
            unexpected(json, key, "a whole number")
            return nil
        }
        return Int(number)
    }

    /// A histogram `{histogramNumBuckets, histogramValue: {"0": {bucketCount, bucketStart, bucketEnd}}}`.
    private mutating func histogram(_ json: MetricKitJSON?) -> MetricAggregates.Histogram? {
        guard let json else { return nil }
        guard let values = json["histogramValue"]?.object else {
            unexpected(json, "histogram", "an object with histogramValue")
            return nil
        }
        var buckets: [MetricAggregates.Histogram.Bucket] = []
        for (key, bucket) in values.sorted(by: { (Int($0.key) ?? .max, $0.key) < (Int($1.key) ?? .max, $1.key) }) {
            guard let start = measure(bucket["bucketStart"], .duration, "bucketStart"),
                let end = measure(bucket["bucketEnd"], .duration, "bucketEnd"),
                let samples = count(bucket["bucketCount"], "bucketCount")
            else {
                note(
                    .warning, code: "bad-histogram-bucket", message: "histogram bucket \(UntrustedText.quoted(key)) is incomplete; it was left out",
                    at: bucket.offset)
                continue
            }
            buckets.append(.init(startS: start, endS: end, count: samples))
        }
        return MetricAggregates.Histogram(buckets: buckets)
    }

    private func add(_ total: Double?, _ part: Double?) -> Double? {
        guard let part else { return total }
        return (total ?? 0) + part
    }

    private func merge(_ lhs: MetricAggregates.Histogram?, _ rhs: MetricAggregates.Histogram?) -> MetricAggregates.Histogram? {
        guard let rhs else { return lhs }
        return MetricAggregates.Histogram(buckets: (lhs?.buckets ?? []) + rhs.buckets)
    }

    // MARK: Diagnostics

    /// Records a diagnostic at `offset`; the message and location are built before the
    /// record so that nothing reads `self` while `diagnostics` is being changed.
    private mutating func note(
        _ severity: ImportDiagnostic.Severity, code: String, message: String, at offset: Int?
    ) {
        let location = offset.map(text.location)
        diagnostics.record(severity, code: code, message: message, location: location)
    }

    private mutating func unexpected(_ json: MetricKitJSON, _ key: String, _ expected: String) {
        note(
            .warning, code: "unexpected-value", message: "\(key) should be \(expected), found \(json.kindDescription); it was left out",
            at: json.offset)
    }

    private mutating func noteUnknownKey(_ key: String, at json: MetricKitJSON) {
        note(
            .info, code: "unknown-keys", message: "field \(UntrustedText.quoted(key)) is not one this importer reads; it was ignored",
            at: json.offset)
    }

    private func refusal(_ json: MetricKitJSON, _ reason: String) -> ImportError {
        .badData(path: path, location: text.location(json.offset), reason: reason)
    }

    private static func describe(_ json: MetricKitJSON) -> String {
        json.string.map { UntrustedText.quoted($0) } ?? json.kindDescription
    }

    // MARK: Vocabulary

    /// Sections of `MXMetricPayload`.
    static let metricSections: Set<String> = [
        "cpuMetrics", "gpuMetrics", "cellularConditionMetrics", "applicationTimeMetrics", "locationActivityMetrics",
        "networkTransferMetrics", "applicationLaunchMetrics", "applicationResponsivenessMetrics", "diskIOMetrics",
        "memoryMetrics", "displayMetrics", "animationMetrics", "applicationExitMetrics", "signpostMetrics", "metaData",
    ]

    /// The diagnostic arrays of `MXDiagnosticPayload`.
    static let diagnosticSections: Set<String> = [
        "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
        "appLaunchDiagnostics",
    ]

    /// Keys MetricKit writes that Drain reads elsewhere or does not map (see docs/metrickit.md).
    static let knownUnmappedKeys: Set<String> = [
        "timeStampBegin", "timeStampEnd", "appVersion", "metaData", "cellularConditionMetrics", "locationActivityMetrics",
        "displayMetrics", "animationMetrics", "signpostMetrics", "version", "callStackTree", "diagnosticMetaData",
    ]
}
