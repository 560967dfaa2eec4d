import DrainTrace
import Testing

/// Combining the aggregates of several MetricKit inputs, and `Timeline.merge` carrying them.
@Suite struct MetricAggregatesTests {
    static func payload(_ fill: (inout MetricAggregates) -> Void) -> MetricAggregates {
        var aggregates = MetricAggregates()
        aggregates.metricPayloads = 1
        fill(&aggregates)
        return aggregates
    }

    @Test func mergeCombinesAggregates() throws {
        var first = Timeline()
        first.wallClockStart = 1_000_000_000
        first.aggregates = Self.payload {
            $0.windowStart = 1_000_000_000
            $0.metricSeconds = 86_400
            $0.cpuTimeS = 100
            $0.peakMemoryBytes = 200_000_000
            $0.averageSuspendedMemoryBytes = 100_000_000
            $0.suspendedMemorySamples = 300
            $0.exits = [.init(reason: "MemoryResourceLimit", foreground: 1)]
            $0.hangs = [.init(durationS: 20)]
        }
        var second = Timeline()
        second.wallClockStart = 5_000_000_000
        second.aggregates = Self.payload {
            $0.windowStart = 5_000_000_000
            $0.metricSeconds = 3_600
            $0.cpuTimeS = 20
            $0.logicalWriteBytes = 1_300_000
            $0.peakMemoryBytes = 150_000_000
            $0.averageSuspendedMemoryBytes = 50_000_000
            $0.suspendedMemorySamples = 100
            $0.exits = [.init(reason: "MemoryResourceLimit", foreground: 2, background: 3)]
        }
        let events = Timeline()
        var diagnostics = [ImportDiagnostics](repeating: ImportDiagnostics(), count: 3)
        let merged = Timeline.merge([first, events, second], diagnostics: &diagnostics)
        let combined = try #require(merged.aggregates)
        #expect(combined.metricPayloads == 2)
        #expect(combined.windowStart == 1_000_000_000)
        #expect(combined.metricSeconds == 90_000)
        #expect(combined.cpuTimeS == 120)
        #expect(combined.logicalWriteBytes == 1_300_000, "a value one part lacks is the other's, not nil")
        #expect(combined.gpuTimeS == nil, "a value no part has stays absent")
        #expect(combined.peakMemoryBytes == 200_000_000)
        // Weighted by samples: (100 MB × 300 + 50 MB × 100) / 400 = 87.5 MB.
        #expect(combined.averageSuspendedMemoryBytes == 87_500_000)
        #expect(combined.suspendedMemorySamples == 400)
        #expect(combined.exits == [.init(reason: "MemoryResourceLimit", foreground: 3, background: 3)])
        #expect(combined.hangs.count == 1)

        let single = Timeline.merge([first], diagnostics: &diagnostics)
        #expect(single.aggregates == first.aggregates)
        #expect(Timeline.merge([events, events], diagnostics: &diagnostics).aggregates == nil)
    }
}
