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

    /// A payload's window (a day, years before the trace) must not stretch a traced run:
    /// the clock and the end come from the inputs with events.
    @Test func aggregatesOnlyInputsDoNotSetTheClockOfATracedRun() throws {
        var payload = Timeline()
        payload.wallClockStart = 1_602_302_400_000_000_000  // 2020-10-10T04:00:00Z
        payload.end = 86_340_000_000_000
        payload.aggregates = Self.payload {
            $0.windowStart = 1_602_302_400_000_000_000
            $0.cpuTimeS = 100
        }
        var trace = Timeline()
        trace.wallClockStart = 1_795_165_200_000_000_000  // 2026-11-20T09:00:00Z
        trace.append(Event(time: 0, kind: .lifecycle))
        trace.append(Event(time: 30_000_000_000, kind: .mark))
        var diagnostics = [ImportDiagnostics](repeating: ImportDiagnostics(), count: 2)
        let merged = Timeline.merge([payload, trace], diagnostics: &diagnostics)
        #expect(merged.wallClockStart == trace.wallClockStart)
        #expect(merged.end == 30_000_000_000)
        #expect(merged.time == [0, 30_000_000_000])
        #expect(merged.aggregates?.cpuTimeS == 100)
        #expect(diagnostics.allSatisfy { $0.isEmpty })

        // Two payloads alone keep their own windows on the clock.
        var later = payload
        later.wallClockStart = payload.wallClockStart! + 86_400_000_000_000
        let payloads = Timeline.merge([payload, later], diagnostics: &diagnostics)
        #expect(payloads.wallClockStart == payload.wallClockStart)
        #expect(payloads.end == 86_400_000_000_000 + 86_340_000_000_000)
    }
}
