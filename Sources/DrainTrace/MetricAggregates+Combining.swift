extension MetricAggregates {
    /// The aggregates of several inputs as one: cumulative values add up, the peak is the
    /// highest peak, the suspended-memory average is weighted by samples (equally when a
    /// payload gives none), the window spans all windows, histograms and diagnostics are
    /// concatenated, and exits add up per reason. A value stays `nil` only if every part
    /// lacks it. O(total buckets + diagnostics + exit reasons²).
    public static func combining(_ parts: [MetricAggregates]) -> MetricAggregates? {
        guard var combined = parts.first else { return nil }
        for part in parts.dropFirst() { combined.add(part) }
        return combined
    }

    /// Adds `other` into these aggregates (see `combining(_:)`).
    public mutating func add(_ other: MetricAggregates) {
        metricPayloads += other.metricPayloads
        diagnosticPayloads += other.diagnosticPayloads
        windowStart = Self.extreme(windowStart, other.windowStart, min)
        windowEnd = Self.extreme(windowEnd, other.windowEnd, max)
        metricSeconds = Self.sum(metricSeconds, other.metricSeconds)
        metadata.fillGaps(from: other.metadata)

        cpuTimeS = Self.sum(cpuTimeS, other.cpuTimeS)
        cpuInstructions = Self.sum(cpuInstructions, other.cpuInstructions)
        gpuTimeS = Self.sum(gpuTimeS, other.gpuTimeS)
        foregroundTimeS = Self.sum(foregroundTimeS, other.foregroundTimeS)
        backgroundTimeS = Self.sum(backgroundTimeS, other.backgroundTimeS)
        backgroundAudioTimeS = Self.sum(backgroundAudioTimeS, other.backgroundAudioTimeS)
        backgroundLocationTimeS = Self.sum(backgroundLocationTimeS, other.backgroundLocationTimeS)
        wifiUpBytes = Self.sum(wifiUpBytes, other.wifiUpBytes)
        wifiDownBytes = Self.sum(wifiDownBytes, other.wifiDownBytes)
        cellularUpBytes = Self.sum(cellularUpBytes, other.cellularUpBytes)
        cellularDownBytes = Self.sum(cellularDownBytes, other.cellularDownBytes)
        logicalWriteBytes = Self.sum(logicalWriteBytes, other.logicalWriteBytes)
        peakMemoryBytes = Self.extreme(peakMemoryBytes, other.peakMemoryBytes, max)
        addSuspendedMemory(other)

        launchTime = Self.concatenate(launchTime, other.launchTime)
        resumeTime = Self.concatenate(resumeTime, other.resumeTime)
        hangTime = Self.concatenate(hangTime, other.hangTime)

        for exit in other.exits { addExits(exit) }
        hangs += other.hangs
        cpuExceptions += other.cpuExceptions
        diskWriteExceptions += other.diskWriteExceptions
        crashes += other.crashes
        launches += other.launches
    }

    /// Adds exit counts for one reason, merging with an earlier count of the same reason.
    public mutating func addExits(_ exit: ExitCount) {
        guard let index = exits.firstIndex(where: { $0.reason == exit.reason }) else {
            exits.append(exit)
            return
        }
        exits[index].foreground = Self.sum(exits[index].foreground, exit.foreground)
        exits[index].background = Self.sum(exits[index].background, exit.background)
    }

    private mutating func addSuspendedMemory(_ other: MetricAggregates) {
        guard let theirs = other.averageSuspendedMemoryBytes else { return }
        guard let ours = averageSuspendedMemoryBytes else {
            averageSuspendedMemoryBytes = theirs
            suspendedMemorySamples = other.suspendedMemorySamples
            return
        }
        let ourWeight = Double(max(1, suspendedMemorySamples ?? 1))
        let theirWeight = Double(max(1, other.suspendedMemorySamples ?? 1))
        averageSuspendedMemoryBytes = (ours * ourWeight + theirs * theirWeight) / (ourWeight + theirWeight)
        suspendedMemorySamples = Self.sum(suspendedMemorySamples, other.suspendedMemorySamples)
    }

    private static func sum<Value: AdditiveArithmetic>(_ lhs: Value?, _ rhs: Value?) -> Value? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return lhs + rhs
    }

    private static func extreme<Value: Comparable>(_ lhs: Value?, _ rhs: Value?, _ pick: (Value, Value) -> Value) -> Value? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return pick(lhs, rhs)
    }

    private static func concatenate(_ lhs: Histogram?, _ rhs: Histogram?) -> Histogram? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return Histogram(buckets: lhs.buckets + rhs.buckets)
    }
}

extension MetricAggregates.Metadata {
    /// Takes each field `other` names that this one does not.
    public mutating func fillGaps(from other: Self) {
        appVersion = appVersion ?? other.appVersion
        appBuildVersion = appBuildVersion ?? other.appBuildVersion
        bundleIdentifier = bundleIdentifier ?? other.bundleIdentifier
        osVersion = osVersion ?? other.osVersion
        deviceType = deviceType ?? other.deviceType
        platformArchitecture = platformArchitecture ?? other.platformArchitecture
        regionFormat = regionFormat ?? other.regionFormat
    }
}
