import DrainTrace

/// Turns the events of a Chrome trace, one at a time, into Drain events, and at the end
/// pairs `B`/`E`, flattens nested slices, names the threads, moves time zero to the first
/// event and builds the timeline.
///
/// Events are held until the end because Chrome traces need not be sorted, name their
/// threads anywhere (often last), and have no time zero of their own. Memory is O(events);
/// nothing is allocated per event beyond the growth of a few arrays.
struct ChromeTraceAssembler: ~Copyable {
    let path: String
    let inputIndex: UInt16
    /// The event being read.
    var fields = ChromeEventFields()
    var diagnostics = ImportDiagnostics()

    /// Strings are interned into this timeline's table as events arrive; rows are appended
    /// by `finish()`.
    private var timeline = Timeline()
    private var recentStrings = RecentStrings()
    private var threads = ChromeThreadTable()
    /// Marks and memory samples, at their trace times; `thread` is a thread index + 1 (0: none).
    private var events: [Event] = []
    private var slices: [Slice] = []
    private var boundaries: [Boundary] = []
    /// The earliest and latest time of any event (slice ends included), in trace nanoseconds.
    private var origin: Nanoseconds = .max
    private var latest: Nanoseconds = .min
    /// `"0"`, the process and thread of events without `pid` or `tid`.
    private let zero: StringID

    private var ignored = IgnoredPhases()
    private var counters = DiagnosticTally(code: "counter-ignored")
    private var derived = DiagnosticTally(code: "derived-skipped")
    private var nested = 0
    private var overlapping = 0
    private var unmatchedEnds = 0
    private var unclosed = 0
    private var firstUnclosed: (name: StringID, time: Nanoseconds) = (0, 0)

    private struct Slice {
        var start: Nanoseconds
        var end: Nanoseconds
        var name: StringID
        var thread: Int32
        var kind: ChromeSliceKind
    }

    private struct Boundary {
        var time: Nanoseconds
        var thread: Int32
        var name: StringID
        var kind: ChromeSliceKind
        var isBegin: Bool
    }

    /// Counts of skipped events per kind of phase, for one grouped diagnostic.
    private struct IgnoredPhases {
        var async = 0, flow = 0, object = 0, sample = 0, other = 0
        var location: String?

        var total: Int { async + flow + object + sample + other }
    }

    init(path: String, inputIndex: UInt16) {
        self.path = path
        self.inputIndex = inputIndex
        zero = timeline.strings.intern("0")
    }

    /// Reads the event `fields` holds (just scanned). `locate` turns an offset in its text
    /// into a location, for the first occurrence of a diagnostic.
    ///
    /// - Throws: `LineError` for an event the format does not allow: no `ph`, no `ts` where
    ///   the phase needs one, a field of the wrong type, a negative `dur`.
    mutating func addEvent(locate: (Int) -> String) throws(LineError) {
        guard let phaseText = try fields.string(.phase) else {
            throw LineError(at: fields.objectStart, "missing \"ph\" (every event needs a phase)")
        }
        let phase = ChromePhase(phaseText)
        if case .metadata = phase {
            try addMetadata()
            return
        }
        var time: Nanoseconds?
        if fields.has(.timestamp) {
            let value = try fields.nanoseconds(.timestamp, allowNegative: true)
            origin = min(origin, value)
            latest = max(latest, value)
            time = value
        }
        let category = try fields.string(.category)
        if let category, category.elementsEqual(ChromeTraceCategory.priced.utf8) {
            if derived.count == 0 {
                derived.first(
                    message: "events of category \"\(ChromeTraceCategory.priced)\" (the energy and radio tracks of a Drain export) were skipped: pricing derives them again",
                    location: locate(fields.objectStart))
            }
            derived.count += 1
            return
        }
        switch phase {
        case .complete, .begin, .end, .instant, .counter:
            guard let time else {
                throw LineError(
                    at: fields.objectStart,
                    "a \(QuotedText.quote(phaseText)) event needs \"ts\" (its time in microseconds)")
            }
            try addTimed(phase, at: time, kind: ChromeSliceKind(category: category), locate: locate)
        case .async: ignored.async += 1
        case .flow: ignored.flow += 1
        case .object: ignored.object += 1
        case .sample: ignored.sample += 1
        case .other, .metadata: ignored.other += 1
        }
        if ignored.total == 1, ignored.location == nil { ignored.location = locate(fields.objectStart) }
    }

    private mutating func addTimed(
        _ phase: ChromePhase, at time: Nanoseconds, kind: ChromeSliceKind, locate: (Int) -> String
    ) throws(LineError) {
        switch phase {
        case .complete:
            let duration = fields.has(.duration) ? try fields.nanoseconds(.duration, allowNegative: false) : 0
            let (end, overflow) = time.addingReportingOverflow(duration)
            guard !overflow else { throw LineError(at: fields.valueOffset(.duration), "\"dur\" is too large") }
            latest = max(latest, end)
            let thread = try threadIndex()
            threads.countEvent(on: thread)
            slices.append(Slice(start: time, end: end, name: try name(), thread: thread, kind: kind))
        case .begin, .end:
            let thread = try threadIndex()
            let isBegin: Bool
            if case .begin = phase { isBegin = true } else { isBegin = false }
            if isBegin { threads.countEvent(on: thread) }
            boundaries.append(Boundary(time: time, thread: thread, name: try name(), kind: kind, isBegin: isBegin))
        case .instant:
            // Only thread-scoped instants ("s": "t", the default) belong to a thread; process
            // ("p") and global ("g") ones to none.
            let scope = try fields.string(.scope)
            var thread: StringID = 0
            if scope == nil || scope!.elementsEqual("t".utf8) {
                let index = try threadIndex()
                threads.countEvent(on: index)
                thread = StringID(index + 1)
            }
            if let exported = try exportedKind() {
                var event = Event(time: time, kind: exported, thread: thread)
                try readExportedFields(into: &event)
                events.append(event)
                return
            }
            var event = Event(time: time, kind: .mark, thread: thread)
            event.label = try name()
            if kind == .drainMark, fields.has(.duration) {
                event.duration = try fields.nanoseconds(.duration, allowNegative: false)
            }
            events.append(event)
        default:
            try addCounter(at: time, locate: locate)
        }
    }

    /// A counter sample becomes a `memory` event when it measures memory: the sum of its
    /// numeric series when the counter's name looks like memory (stacked series add up, as
    /// chrome://tracing draws them), else the sum of the series whose names do; other
    /// counters are skipped.
    private mutating func addCounter(at time: Nanoseconds, locate: (Int) -> String) throws(LineError) {
        let counterName = try fields.string(.name)
        let counterIsMemory = counterName.map(Self.looksLikeMemory) ?? false
        var total = 0.0
        var matched = false
        fields.forEachArgument { fields, key, value in
            guard let number = fields.double(value), counterIsMemory || Self.looksLikeMemory(key) else { return }
            total += number
            matched = true
        }
        guard matched, total.isFinite else {
            if counters.count == 0 {
                counters.first(
                    message: "samples of counters that do not measure memory were skipped (the first: \(QuotedText.quote(counterName ?? UnsafeRawBufferPointer(start: nil, count: 0)))); counters named like memory, heap, footprint, rss or resident become memory events",
                    location: locate(fields.objectStart))
            }
            counters.count += 1
            return
        }
        events.append(Event(time: time, kind: .memory, amount: Int64(min(max(0, total), 9.2e18).rounded())))
    }

    /// Whether a name says it measures memory: it holds `memory`, `heap`, `footprint`, `rss`
    /// or `resident`, in any case.
    static func looksLikeMemory(_ name: UnsafeRawBufferPointer) -> Bool {
        memoryWords.contains { contains(name, $0) }
    }

    private static let memoryWords: [StaticString] = ["memory", "heap", "footprint", "rss", "resident"]

    private static func contains(_ text: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard text.count >= count else { return false }
        let letters = word.utf8Start
        search: for start in 0...(text.count - count) {
            for offset in 0..<count where text[start + offset] | 0x20 != letters[offset] { continue search }
            return true
        }
        return false
    }

    /// `process_name` and `thread_name` metadata name processes and threads; other metadata
    /// (sort orders, labels) changes nothing here.
    private mutating func addMetadata() throws(LineError) {
        guard let kind = try fields.string(.name) else { return }
        let isProcess = kind.elementsEqual("process_name".utf8)
        guard isProcess || kind.elementsEqual("thread_name".utf8) else { return }
        var nameSpan: JSONSpan?
        fields.forEachArgument { fields, key, value in
            if value.kind == .string, key.elementsEqual("name".utf8) { nameSpan = value }
        }
        guard let nameSpan else { return }
        let name = intern(fields.text(of: nameSpan))
        if isProcess {
            threads.name(process: try identifier(.process), name)
        } else {
            threads.name(thread: try threadIndex(), name)
        }
    }

    private mutating func name() throws(LineError) -> StringID {
        guard let text = try fields.string(.name) else { return 0 }
        return intern(text)
    }

    private mutating func identifier(_ field: ChromeField) throws(LineError) -> StringID {
        guard let text = try fields.identifier(field) else { return zero }
        return intern(text)
    }

    private mutating func threadIndex() throws(LineError) -> Int32 {
        let process = try identifier(.process)
        return threads.index(process: process, thread: try identifier(.thread))
    }

    /// Interns padded text, short strings through `recentStrings`.
    mutating func intern(_ text: UnsafeRawBufferPointer) -> StringID {
        guard let name = PackedName(padded: text) else { return timeline.strings.intern(text) }
        if let id = recentStrings.id(of: name) { return id }
        let id = timeline.strings.intern(text)
        recentStrings.remember(name, as: id)
        return id
    }

    // MARK: Finishing

    /// Builds the timeline and describes the input. O(n log n) in events.
    consuming func finish() -> ImportedInput {
        pairBoundaries()
        flattenSlices()
        var timeline = timeline
        let (names, process) = threads.resolve(strings: &timeline.strings)
        let shift = origin == .max ? 0 : origin
        let order = events.indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
        timeline.reserveCapacity(events.count)
        for index in order {
            var event = events[index]
            event.time -= shift
            if event.thread != 0 { event.thread = names[Int(event.thread) - 1] }
            timeline.append(event, input: inputIndex)
        }
        var diagnostics = diagnostics
        recordTallies(into: &diagnostics, strings: timeline.strings)
        timeline.finish(diagnostics: &diagnostics)
        let info = InputInfo(
            path: path, format: InputFormat.chromeTrace.rawValue, events: timeline.count, process: process,
            diagnostics: diagnostics)
        return ImportedInput(timeline: timeline, info: info)
    }

    /// Pairs `B` and `E` per thread in time order (file order among equal times): an `E`
    /// ends the latest open `B` of its thread. `B`s still open at the end close at the last
    /// time of the trace.
    private mutating func pairBoundaries() {
        let order = boundaries.indices.sorted {
            (boundaries[$0].thread, boundaries[$0].time, $0) < (boundaries[$1].thread, boundaries[$1].time, $1)
        }
        var open: [Int] = []
        var thread: Int32 = -1
        for index in order {
            let boundary = boundaries[index]
            if boundary.thread != thread {
                closeUnended(&open)
                thread = boundary.thread
            }
            if boundary.isBegin {
                open.append(index)
            } else if let begin = open.popLast() {
                let start = boundaries[begin]
                slices.append(Slice(start: start.time, end: boundary.time, name: start.name, thread: thread, kind: start.kind))
            } else {
                unmatchedEnds += 1
            }
        }
        closeUnended(&open)
    }

    private mutating func closeUnended(_ open: inout [Int]) {
        for begin in open {
            let start = boundaries[begin]
            if unclosed == 0 { firstUnclosed = (start.name, start.time) }
            unclosed += 1
            slices.append(Slice(start: start.time, end: latest, name: start.name, thread: start.thread, kind: start.kind))
        }
        open.removeAll(keepingCapacity: true)
    }

    /// Chrome slices nest (a task, the function it runs, what that calls…) and each spans
    /// wall time, so summing them all would count the same CPU time several times. Per
    /// thread, the outermost slices become `cpu` (or `gpu`) events; slices inside them become
    /// `mark`s with their duration, keeping their names and times; a slice that starts inside
    /// another but ends after it counts as CPU time only from where the other ends. Slices
    /// of a Drain export (`drain.cpu`, `drain.gpu`, `drain.mark`) are kept as they are.
    private mutating func flattenSlices() {
        let order = slices.indices.sorted { lhs, rhs in
            let a = slices[lhs], b = slices[rhs]
            if a.thread != b.thread { return a.thread < b.thread }
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end > b.end }
            return lhs < rhs
        }
        var covered = Nanoseconds.min
        var thread: Int32 = -1
        events.reserveCapacity(events.count + slices.count)
        for index in order {
            let slice = slices[index]
            if slice.thread != thread {
                thread = slice.thread
                covered = .min
            }
            var event = Event(time: slice.start, kind: .cpu, thread: StringID(slice.thread + 1))
            event.label = slice.name
            event.duration = slice.end - slice.start
            switch slice.kind {
            case .drainCPU:
                break
            case .drainGPU:
                event.kind = .gpu
            case .drainMark:
                event.kind = .mark
            case .cpu, .gpu:
                if slice.kind == .gpu { event.kind = .gpu }
                if slice.start >= covered {
                    covered = slice.end
                } else if slice.end <= covered {
                    event.kind = .mark
                    nested += 1
                } else {
                    event.time = covered
                    event.duration = slice.end - covered
                    covered = slice.end
                    overlapping += 1
                }
            }
            events.append(event)
        }
    }

    private func recordTallies(into diagnostics: inout ImportDiagnostics, strings: StringTable) {
        derived.record(into: &diagnostics, severity: .info)
        if ignored.total > 0 {
            let parts = [
                (ignored.async, "async (b/n/e, S/T/p/F)"), (ignored.flow, "flow (s/t/f)"),
                (ignored.object, "object (N/O/D)"), (ignored.sample, "sample (P)"), (ignored.other, "of other phases"),
            ]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
            diagnostics.record(
                .info, code: "ignored-events",
                message: "events Drain does not model were skipped: \(parts.joined(separator: ", "))",
                location: ignored.location, count: ignored.total)
        }
        counters.record(into: &diagnostics, severity: .info)
        if nested > 0 {
            diagnostics.record(
                .info, code: "nested-slices",
                message: "slices inside another slice of their thread became marks: their time is part of the enclosing slice's CPU time",
                count: nested)
        }
        if overlapping > 0 {
            diagnostics.record(
                .info, code: "overlapping-slices",
                message: "slices began inside another slice of their thread and ended after it; only the part after it counts as CPU time",
                count: overlapping)
        }
        if unmatchedEnds > 0 {
            diagnostics.record(
                .warning, code: "unmatched-end",
                message: "\"E\" events ended no open \"B\" of their thread and were skipped", count: unmatchedEnds)
        }
        if unclosed > 0 {
            // The bytes are quoted inside the closure: the pointer is valid only there.
            let name =
                firstUnclosed.name == 0
                ? "(unnamed)" : Array(strings[firstUnclosed.name].utf8).withUnsafeBytes { QuotedText.quote($0) }
            diagnostics.record(
                .warning, code: "unclosed-slices",
                message: "\"B\" events were never ended (the first: \(name) at ts \(Double(firstUnclosed.time) / 1000) µs); they were closed at the last time of the trace",
                count: unclosed)
        }
    }
}
