import DrainAggregate
import DrainTrace

/// Prices every event of a timeline with a device model.
///
/// CPU slices cost duration × active power; wakeups, timer fires and polls cost one wakeup
/// each; disk operations cost per operation, per byte and per fsync; frames cost per frame
/// and GPU slices duration × GPU power; sensors and location cost power × the time between
/// their start and stop (or the end of the run), less the run's time gaps. `net` events drive the radio state machine
/// of their link (`DeviceRadios`): promotion, transfer and tail energy go to the ledger in
/// category `radio`, keyed by the event's host, and to the packets that caused them; a tail
/// still running at the end of the run is charged in full (`PricedTimeline.end` covers it).
/// A `net` event with a duration (coalesced packets of a capture) keeps its radio active from
/// its time to its end (`NetSpanMarkers`).
/// The ledger entries are not kept: each pass folds them into a `CostSummary` on the run's
/// `BinGrid` every `CostSummary.foldLength` entries. O(n) in events plus O(e + k log k) in
/// ledger entries (k of them out of time order within their fold); no allocation per event.
public struct Pricer: Sendable {
    public let model: DeviceModel

    /// `model` should be valid (`DeviceModel.validate()`); every model `ModelCatalog` loads is.
    public init(model: DeviceModel) {
        self.model = model
    }

    /// Prices `timeline`, summing energy into the bins of `grid` (by default the timeline
    /// chart's, `BinGrid(chartOf:)`); ledger entries cover at most an eighth of a bin each
    /// (`CostLedger.resolution(forBinWidth:)`), so energy lands in the bins where it was spent.
    ///
    /// Passes on up to `threads` threads: one drives the radios with the `net` events and
    /// prices sensors and location, the others price every other event, in pieces of
    /// `workPieceRows` rows that the threads take in turn (a trace's work pass is most of its
    /// pricing). Where the pieces are cut depends on the timeline alone, so the result is the
    /// same for any thread count; the radio pass and the work pieces price disjoint categories.
    public func price(
        _ timeline: Timeline, grid: BinGrid? = nil, threads: Int = ParallelWork.defaultThreads()
    ) -> PricedTimeline {
        price(timeline, grid: grid, threads: threads, workPieceRows: Self.workPieceRows)
    }

    /// `price(_:grid:threads:)` with work pieces of `workPieceRows` rows.
    func price(_ timeline: Timeline, grid: BinGrid?, threads: Int, workPieceRows: Int) -> PricedTimeline {
        let grid = grid ?? BinGrid(chartOf: timeline)
        var eventEnergy = [Double](repeating: 0, count: timeline.count)
        let workRanges = Self.workRanges(rows: timeline.count, pieceRows: workPieceRows)
        // The first work range goes first, then the radio pass and the other work ranges: on a
        // trace both threads go on to the other work ranges while the radio pass runs.
        let tasks = [PricingTask.work(workRanges[0]), .radio] + workRanges.dropFirst().map { .work($0) }
        var pieces = eventEnergy.withUnsafeMutableBufferPointer { rows in
            let shared = RowEnergy(rows: rows)
            return ParallelWork.map(tasks.count, threads: threads) { index -> PricingPiece in
                switch tasks[index] {
                case .work(let rows):
                    var priced = PricingAccumulator(timeline: timeline, grid: grid, eventEnergy: shared)
                    priceWork(timeline, rows: rows, into: &priced)
                    return .work(priced)
                case .radio:
                    var priced = PricingAccumulator(timeline: timeline, grid: grid, eventEnergy: shared)
                    priceRadio(timeline, into: &priced)
                    priceOpenEnded(timeline, into: &priced)
                    return .radio(priced)
                }
            }
        }
        var work: [PricingAccumulator] = []
        work.reserveCapacity(workRanges.count)
        var radioPass: PricingAccumulator?
        for piece in pieces {
            switch piece {
            case .work(let accumulator): work.append(accumulator)
            case .radio(let accumulator): radioPass = accumulator
            }
        }
        pieces = []
        guard var radioPass = radioPass.take() else { preconditionFailure("every task gives its piece") }
        let radio = radioPass.radio
        let end = max(timeline.end, radio.attributedEnd ?? timeline.end)
        var costs = work[0].closeCosts(at: end)
        costs.add(radioPass.closeCosts(at: end))
        for index in work.indices.dropFirst() { costs.add(work[index].closeCosts(at: end)) }
        work = []
        return PricedTimeline(timeline: timeline, costs: costs, eventEnergy: eventEnergy, radio: radio)
    }

    /// Rows of a work piece: fewer rows are priced in one piece, more are cut into pieces of
    /// about this many.
    static let workPieceRows = 1 << 20

    /// The row ranges of the work pieces of a timeline of `rows` rows: one piece up to
    /// `pieceRows` rows, then as many pieces of equal size as that size allows.
    static func workRanges(rows: Int, pieceRows: Int) -> [Range<Int>] {
        let count = max(1, rows / max(1, pieceRows))
        return (0..<count).map { piece in rows * piece / count..<rows * (piece + 1) / count }
    }

    /// A piece of work of `price(_:grid:threads:workPieceRows:)`.
    private enum PricingTask {
        /// Every event but `net`, sensors and location in these rows.
        case work(Range<Int>)
        /// The radios driven by the `net` events, with sensors and location.
        case radio
    }

    /// What a task gives.
    private enum PricingPiece {
        case work(PricingAccumulator)
        case radio(PricingAccumulator)
    }

    /// The radio pass (`RadioReplay`): `net` events drive the radio of their link; a spanning
    /// event keeps it active to its end.
    private func priceRadio(_ timeline: Timeline, into priced: inout PricingAccumulator) {
        var replay = RadioReplay(timeline, model: model)
        replay.run(into: &priced)
        priced.radio.promotions = replay.promotions
    }

    /// A piece of the pass over every event but `net`, sensors and location: CPU, wakeups,
    /// timers and polls, disk and display, each priced on its own.
    private func priceWork(_ timeline: Timeline, rows: Range<Int>, into priced: inout PricingAccumulator) {
        let wakeup = model.cpu.wakeupJ.value
        let active = model.cpu.activeW.value
        for row in rows {
            let time = timeline.time[row]
            var joules = 0.0
            var category = EnergyCategory.cpu
            var key = timeline.label[row]
            var duration: Nanoseconds = 0
            switch timeline.kind[row] {
            case .cpu:
                duration = timeline.duration[row]
                joules = Clock.seconds(duration) * active
                if key == 0 { key = timeline.thread[row] }
            case .wakeup:
                joules = wakeup
                if timeline.label2[row] != 0 { key = timeline.label2[row] }
            case .timer, .poll:
                joules = wakeup
                category = .polling
            case .disk:
                category = .disk
                joules = diskEnergy(operation: timeline.code[row], bytes: timeline.amount[row])
            case .frame:
                category = .display
                joules = model.display.perFrameJ.value
            case .gpu:
                category = .display
                duration = timeline.duration[row]
                joules = Clock.seconds(duration) * model.display.gpuW.value
            case .net, .sensor, .location, .lifecycle, .memory, .memoryWarning, .resource, .backgroundTask, .idleTimer, .mark,
                .unknown:
                continue
            }
            priced.add(row: row, time: time, duration: duration, category: category, joules: joules, key: key)
        }
    }

    /// Sensors and location: each is charged from its start to its stop (or the end of the run),
    /// so the whole run is one pass.
    private func priceOpenEnded(_ timeline: Timeline, into priced: inout PricingAccumulator) {
        var openSensors: [StringID: (row: Int, power: Double)] = [:]
        var openLocation: (row: Int, power: Double)?
        for row in 0..<timeline.count {
            switch timeline.kind[row] {
            case .sensor:
                let kind = timeline.label[row]
                if timeline.code[row] == Action.start.rawValue {
                    if openSensors[kind] == nil {
                        openSensors[kind] = (row, sensorPower(kind: timeline.strings[kind]))
                    }
                } else if let open = openSensors.removeValue(forKey: kind) {
                    spend(open, until: timeline.time[row], category: .sensors, key: kind, into: &priced, timeline)
                }
            case .location:
                if timeline.code[row] == Action.start.rawValue {
                    let power = locationPower(accuracyMeters: timeline.value[row])
                    if let open = openLocation {
                        spend(open, until: timeline.time[row], category: .location, key: 0, into: &priced, timeline)
                    }
                    openLocation = (row, power)
                } else if let open = openLocation {
                    spend(open, until: timeline.time[row], category: .location, key: 0, into: &priced, timeline)
                    openLocation = nil
                }
            default:
                continue
            }
        }
        for (kind, open) in openSensors.sorted(by: { $0.value.row < $1.value.row }) {
            spend(open, until: timeline.end, category: .sensors, key: kind, into: &priced, timeline)
        }
        if let open = openLocation {
            spend(open, until: timeline.end, category: .location, key: 0, into: &priced, timeline)
        }
    }

    /// Energy of one disk operation (`DiskOperation` raw value), joules.
    public func diskEnergy(operation: UInt8, bytes: Int64) -> Double {
        switch DiskOperation(rawValue: operation) {
        case .fsync: model.disk.perFsyncJ.value
        case .write, .read: model.disk.perOpJ.value + Double(max(0, bytes)) / 1e6 * model.disk.perMbJ.value
        case .truncate: model.disk.perOpJ.value
        case nil: 0
        }
    }

    /// Power of a sensor kind while it runs, watts.
    public func sensorPower(kind: String) -> Double {
        switch kind {
        case "accelerometer": model.sensors.accelerometerW.value
        case "gyroscope", "gyro": model.sensors.gyroscopeW.value
        case "magnetometer": model.sensors.magnetometerW.value
        default: model.sensors.otherW.value
        }
    }

    /// Power of location updates at a requested accuracy (metres; 0 or less means best), watts.
    public func locationPower(accuracyMeters: Double) -> Double {
        switch accuracyMeters {
        case ...5: model.location.bestW.value
        case ...10: model.location.tenMetersW.value
        case ...100: model.location.hundredMetersW.value
        default: model.location.kilometerW.value
        }
    }

    private func spend(
        _ open: (row: Int, power: Double), until end: Nanoseconds, category: EnergyCategory, key: StringID,
        into priced: inout PricingAccumulator, _ timeline: Timeline
    ) {
        let start = timeline.time[open.row]
        let duration = max(0, end - start)
        // Time gaps were not observed: a sensor left on across one is charged for its segments only.
        let active = timeline.gaps.activeTime(from: start, to: end)
        priced.add(
            row: open.row, time: start, duration: duration, category: category,
            joules: Clock.seconds(active) * open.power, key: key)
    }
}
