import Algorithms

/// The events of one run, stored column by column (structure of arrays), on one clock of
/// integer nanoseconds since the timeline origin, sorted by time.
///
/// Importers append rows with `append(_:)`; once an import is done, `finish(diagnostics:)`
/// sorts out-of-order rows stably and records that it did. Pricing, aggregation and rules
/// read the columns directly. See `Event` for which payload column each kind uses.
public struct Timeline: Sendable {
    public private(set) var time: [Nanoseconds] = []
    public private(set) var kind: [EventKind] = []
    /// Stored for the rows that name a thread only.
    public private(set) var thread = SparseColumn<StringID>(defaultValue: 0)
    public private(set) var code: [UInt8] = []
    public private(set) var code2: [UInt8] = []
    /// Stored for the rows with an amount only (bytes, a footprint).
    public private(set) var amount = SparseColumn<Int64>(defaultValue: 0)
    /// Stored for the rows that differ from -1 only (disk events' file sizes).
    public private(set) var amount2 = SparseColumn<Int64>(defaultValue: -1)
    /// Stored for the rows that last or span a while only.
    public private(set) var duration = SparseColumn<Nanoseconds>(defaultValue: 0)
    /// Stored for the rows that differ from 0 only (timers, sensors, location).
    public private(set) var value = SparseColumn<Double>(defaultValue: 0)
    /// Stored for the rows that differ from 0 only (location).
    public private(set) var value2 = SparseColumn<Double>(defaultValue: 0)
    public private(set) var label: [StringID] = []
    /// Stored for the rows that have a second label only (a source, a connection, an id).
    public private(set) var label2 = SparseColumn<StringID>(defaultValue: 0)
    /// Which input (index into the analysis inputs) each event came from; stored for the rows
    /// of inputs after the first only.
    public private(set) var input = SparseColumn<UInt16>(defaultValue: 0)

    /// The strings that `thread`, `label` and `label2` refer to.
    public var strings = StringTable()

    /// The network flows of the capture inputs (empty for traces); their strings are in
    /// `strings` and their times on this timeline's clock.
    public var flows = FlowTable()

    /// Wall-clock time of time zero, nanoseconds since the Unix epoch, when known.
    public var wallClockStart: Int64?

    /// The end of the observed run: the later of the last event's end and any end the input
    /// declared (a trace footer, a capture's last packet). Set by importers and `finish`.
    public var end: Nanoseconds = 0

    /// Aggregate metrics of MetricKit inputs (totals over a window, not events), if any.
    public var aggregates: MetricAggregates?

    /// The stretches without events that split the run into active segments; none until the
    /// analysis finds them on the merged timeline (`TimeGaps.detect`).
    public var gaps = TimeGaps()

    /// Times that went backwards in the inputs as they were read, before sorting: set by
    /// `finish` (and by importers that see their raw order, like captures), summed by `merge`.
    public var backwardJumps = BackwardJumps()

    /// Whether the run is aggregates only: MetricKit inputs and no events to judge.
    public var isAggregatesOnly: Bool { time.isEmpty && aggregates != nil }

    private var sorted = true

    public init() {}

    /// The number of events. O(1).
    public var count: Int { time.count }
    public var isEmpty: Bool { time.isEmpty }

    /// Reserves room for `capacity` events in every column.
    public mutating func reserveCapacity(_ capacity: Int) {
        time.reserveCapacity(capacity)
        kind.reserveCapacity(capacity)
        thread.reserveCapacity(capacity)
        code.reserveCapacity(capacity)
        code2.reserveCapacity(capacity)
        amount.reserveCapacity(capacity)
        amount2.reserveCapacity(capacity)
        duration.reserveCapacity(capacity)
        value.reserveCapacity(capacity)
        value2.reserveCapacity(capacity)
        label.reserveCapacity(capacity)
        label2.reserveCapacity(capacity)
        input.reserveCapacity(capacity)
    }

    /// Gives back the room the columns grew beyond their count: the sparse columns' values,
    /// whose number is not known when rows are reserved (`reserveCapacity`), grow by doubling,
    /// and the arrays of a block of rows taken over (`appendNetRows`) bring the room they grew
    /// in; so do the interned strings' bytes. O(values) when some are moved.
    public mutating func releaseUnusedCapacity() {
        time.releaseUnusedCapacity()
        label.releaseUnusedCapacity()
        thread.releaseUnusedCapacity()
        amount.releaseUnusedCapacity()
        amount2.releaseUnusedCapacity()
        duration.releaseUnusedCapacity()
        value.releaseUnusedCapacity()
        value2.releaseUnusedCapacity()
        label2.releaseUnusedCapacity()
        input.releaseUnusedCapacity()
        strings.releaseUnusedCapacity()
    }

    /// Appends one event. Amortised O(1), no allocation beyond column growth.
    @inlinable
    public mutating func append(_ event: Event, input: UInt16 = 0) {
        appendRow(event, input: input)
    }

    @usableFromInline
    internal mutating func appendRow(_ event: Event, input source: UInt16) {
        if let last = time.last, event.time < last { sorted = false }
        time.append(event.time)
        kind.append(event.kind)
        thread.append(event.thread)
        code.append(event.code)
        code2.append(event.code2)
        amount.append(event.amount)
        amount2.append(event.amount2)
        duration.append(event.duration)
        value.append(event.value)
        value2.append(event.value2)
        label.append(event.label)
        label2.append(event.label2)
        input.append(source)
        let eventEnd = event.time + (event.kind.durationIsSpan ? max(0, event.duration) : 0)
        if eventEnd > end { end = eventEnd }
    }

    /// Appends a block of `net` rows, as `append(_:input:)` would one by one, taking the
    /// block's arrays over as columns where this timeline has none yet (a capture read on its
    /// own): thirteen appends a row cost several times as much, and the block's arrays would
    /// be kept beside copies of them. The rows' thread, `amount2`, `value` and `value2` are
    /// their defaults. O(rows).
    public mutating func appendNetRows(_ rows: consuming NetRowColumns, input source: UInt16) {
        var rows = rows
        let count = rows.count
        guard count > 0 else { return }
        var previous = time.last ?? .min
        var latestEnd = end
        for row in 0..<count {
            let start = rows.time[row]
            if start < previous { sorted = false }
            previous = start
            latestEnd = max(latestEnd, start + max(0, rows.duration[row]))
        }
        end = latestEnd
        func move<Element>(_ column: inout [Element], _ from: inout [Element]) {
            if column.isEmpty { swap(&column, &from) } else { column.append(contentsOf: from) }
            from = []
        }
        move(&time, &rows.time)
        kind.append(contentsOf: repeatElement(.net, count: count))
        thread.append(repeating: 0, count: count)
        code.append(contentsOf: rows.direction.lazy.map(\.rawValue))
        rows.direction = []
        code2.append(contentsOf: rows.link.lazy.map(\.rawValue))
        rows.link = []
        amount.append(movingContentsOf: &rows.bytes)
        amount2.append(repeating: -1, count: count)
        duration.append(movingContentsOf: &rows.duration)
        value.append(repeating: 0, count: count)
        value2.append(repeating: 0, count: count)
        move(&label, &rows.host)
        label2.append(movingContentsOf: &rows.connection)
        input.append(repeating: source, count: count)
    }

    /// Appends the rows of `other` after this timeline's, as if appended one by one: `other`
    /// is a later part of the same input read on its own (with its own strings, which are
    /// interned here). Its flows, aggregates and gaps are not carried over: importers of
    /// inputs that have them read them whole. Each of `other`'s columns is released once it
    /// is appended, so memory peaks at this timeline plus `other`'s largest column when
    /// `other` is the only holder of its columns; `other` is left empty. O(rows + string bytes
    /// of `other`).
    public mutating func appendRows(of other: inout Timeline) {
        guard !other.isEmpty else { return }
        let ids = strings.intern(contentsOf: other.strings)
        other.strings = StringTable()
        if !other.sorted || (time.last.map { other.time[0] < $0 } ?? false) { sorted = false }
        func move<Element>(_ column: inout [Element], _ from: inout [Element]) {
            column.append(contentsOf: from)
            from = []
        }
        let interned = { (id: StringID) in ids[Int(id)] }
        move(&time, &other.time)
        move(&kind, &other.kind)
        thread.append(movingRowsOf: &other.thread, transform: interned)
        move(&code, &other.code)
        move(&code2, &other.code2)
        amount.append(movingRowsOf: &other.amount)
        amount2.append(movingRowsOf: &other.amount2)
        duration.append(movingRowsOf: &other.duration)
        value.append(movingRowsOf: &other.value)
        value2.append(movingRowsOf: &other.value2)
        label.append(contentsOf: other.label.lazy.map(interned))
        other.label = []
        label2.append(movingRowsOf: &other.label2, transform: interned)
        input.append(movingRowsOf: &other.input)
        end = max(end, other.end)
        backwardJumps.add(other.backwardJumps)
        other = Timeline()
    }

    /// The row at `index` as a value. O(1).
    public subscript(index: Int) -> Event {
        Event(
            time: time[index], kind: kind[index], thread: thread[index], code: code[index], code2: code2[index],
            amount: amount[index], amount2: amount2[index], duration: duration[index], value: value[index],
            value2: value2[index], label: label[index], label2: label2[index])
    }

    /// Whether the rows are in time order.
    public var isSorted: Bool { sorted }

    /// Sorts rows by time, keeping the input order of equal times (stable). O(n log n) when
    /// out of order, O(1) when already sorted. Returns the rows that were earlier than the row
    /// before them: how many, and the largest step back.
    @discardableResult
    public mutating func sortByTime() -> BackwardJumps {
        guard !sorted else { return BackwardJumps() }
        var jumps = BackwardJumps()
        for index in 1..<time.count { jumps.note(from: time[index - 1], to: time[index]) }
        let order = (0..<time.count).sorted { lhs, rhs in
            time[lhs] != time[rhs] ? time[lhs] < time[rhs] : lhs < rhs
        }
        time = order.map { time[$0] }
        kind = order.map { kind[$0] }
        thread = thread.permuted(order)
        code = order.map { code[$0] }
        code2 = order.map { code2[$0] }
        amount = amount.permuted(order)
        amount2 = amount2.permuted(order)
        duration = duration.permuted(order)
        value = value.permuted(order)
        value2 = value2.permuted(order)
        label = order.map { label[$0] }
        label2 = label2.permuted(order)
        input = input.permuted(order)
        sorted = true
        return jumps
    }

    /// Ends an import: sorts the rows if needed and records a diagnostic saying so, with the
    /// largest step back in time (a merged or re-ordered input).
    public mutating func finish(diagnostics: inout ImportDiagnostics) {
        let moved = sortByTime()
        backwardJumps.add(moved)
        if moved.count > 0 {
            diagnostics.record(
                .warning, code: "out-of-order",
                message: "\(moved.count) event(s) were earlier than the event before them, the largest step back "
                    + "\(TimeGaps.describe(moved.largest)); the timeline was sorted by time (stable)",
                count: moved.count)
        }
    }

    /// Merges timelines of one run onto one clock.
    ///
    /// Inputs that know their wall-clock start are shifted so that their events line up;
    /// time zero of the result is the earliest start. An input without a wall clock starts at
    /// the result's time zero, and `diagnostics[i]` of that input says so. Strings are
    /// re-interned into one table and each row's `input` becomes the index of its timeline;
    /// flows are carried over the same way (times shifted, strings re-interned, tagged with
    /// their input). Aggregate metrics are combined (`MetricAggregates.combining`); an input
    /// of aggregates only does not set the clock or the end when another input has events.
    /// O(n log n) in the total number of events, plus O(flows).
    public static func merge(_ timelines: [Timeline], diagnostics: inout [ImportDiagnostics]) -> Timeline {
        if timelines.count == 1 {
            var only = timelines[0]
            only.retagInput(0)
            only.flows.setInput(0)
            return only
        }
        // MetricKit aggregates cover a day or so around, not during, the traced run: when any
        // input has events, the aggregates-only ones do not set the clock or the run's end.
        let hasTimedInput = timelines.contains { !$0.isAggregatesOnly }
        func setsClock(_ timeline: Timeline) -> Bool { !(hasTimedInput && timeline.isAggregatesOnly) }
        let known = timelines.filter(setsClock).compactMap(\.wallClockStart)
        let origin = known.min()
        var merged = Timeline()
        merged.wallClockStart = origin
        merged.aggregates = MetricAggregates.combining(timelines.compactMap(\.aggregates))
        merged.reserveCapacity(timelines.reduce(0) { $0 + $1.count })
        for (index, timeline) in timelines.enumerated() where setsClock(timeline) {
            var shift: Int64 = 0
            if let start = timeline.wallClockStart, let origin {
                shift = start - origin
            } else if origin != nil, index < diagnostics.count {
                diagnostics[index].record(
                    .warning, code: "no-wall-clock",
                    message: "this input has no wall-clock start, so it was aligned to the start of the other inputs")
            }
            let remap = merged.strings.intern(contentsOf: timeline.strings)
            for row in 0..<timeline.count {
                var event = timeline[row]
                event.time += shift
                event.thread = remap[Int(event.thread)]
                event.label = remap[Int(event.label)]
                event.label2 = remap[Int(event.label2)]
                merged.appendRow(event, input: UInt16(truncatingIfNeeded: index))
            }
            merged.flows.append(
                contentsOf: timeline.flows, shift: shift, strings: remap, input: UInt16(truncatingIfNeeded: index))
            merged.end = max(merged.end, timeline.end + shift)
            merged.backwardJumps.add(timeline.backwardJumps)
        }
        // Interleaving the inputs is no jump back in any of them.
        merged.sortByTime()
        return merged
    }

    private mutating func retagInput(_ index: UInt16) {
        if !input.isEvery(index) {
            input = SparseColumn(repeatElement(index, count: time.count), defaultValue: input.defaultValue)
        }
    }

    /// The first row at or after `instant` (`count` when none is). Binary search, O(log n).
    /// - Precondition: the rows are sorted (`isSorted`).
    public func firstRow(atOrAfter instant: Nanoseconds) -> Int {
        time.partitioningIndex { $0 >= instant }
    }

    /// The span of the run from time zero to `end`, in seconds.
    public var durationSeconds: Double { Clock.seconds(end) }
}
