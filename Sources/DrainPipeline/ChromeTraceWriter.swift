import DrainAggregate
import DrainImport
import DrainModel
import DrainTrace

/// Renders a priced run as Chrome Trace Event JSON (the object form) for the Perfetto UI and
/// chrome://tracing: one process, a track per thread, and tracks of what pricing derived.
///
/// - `cpu` and `gpu` events are complete (`X`) slices on their thread's track (categories
///   `drain.cpu`, `drain.gpu`); events of no thread go to tracks named `cpu` and `gpu`.
/// - `mark` events are instants (`drain.mark`), or slices when they have a duration.
/// - Every other event is an instant named after what happened (`net rx`, `disk write`,
///   `lifecycle: background`…) with its fields as `args`, on its thread or, without one, on
///   the process (scope `p`); `memory` is a counter track, `memory`, with `footprint` bytes.
/// - Events that cost energy carry `energy_j` in their `args`.
/// - Pricing's output has category `drain.priced`: counter tracks `power (mW)` (the average
///   power of each category over each bin) and `energy (J)` (cumulative per category), and
///   each radio's non-idle states as slices on a `radio (LINK)` track.
///
/// Times are microseconds since the run's time zero, written exactly from nanoseconds (three
/// decimals at most). Every string from the input is escaped as JSON. The output depends
/// only on the run: the same run gives the same bytes. O(events + bins + radio segments),
/// the segments from a replay of the run's radios.
struct ChromeTraceWriter {
    let priced: PricedTimeline
    /// The process name for the process track (the first input's), if known.
    let process: String?
    let generator: String
    let model: DeviceModel

    private static let pid = ChromeEventWriter.pid

    private var timeline: Timeline { priced.timeline }

    func render() -> String {
        var output = ChromeEventWriter(otherData: [("generator", generator), ("model", model.name)])
        output.reserveCapacity(160 * (timeline.count + 64))
        var tracks = TrackTable()
        writeEvents(into: &output, tracks: &tracks)
        writeRadio(into: &output, tracks: &tracks)
        writeEnergy(into: &output)
        writeNames(into: &output, tracks: tracks)
        return output.finish()
    }

    // MARK: Timeline events

    private func writeEvents(into output: inout ChromeEventWriter, tracks: inout TrackTable) {
        for row in 0..<timeline.count {
            let kind = timeline.kind[row]
            let thread = timeline.thread[row]
            let energy = row < priced.eventEnergy.count ? priced.eventEnergy[row] : 0
            switch kind {
            case .cpu, .gpu:
                let tid = thread != 0 ? tracks.tid(timeline.strings[thread]) : tracks.tid(kind.traceName)
                let name = timeline.label[row] != 0 ? timeline.strings[timeline.label[row]] : kind.traceName
                output.slice(
                    name: name, category: kind == .cpu ? ChromeTraceCategory.cpu : ChromeTraceCategory.gpu,
                    start: timeline.time[row], duration: timeline.duration[row], tid: tid
                ) { arguments in if energy > 0 { arguments.number("energy_j", energy) } }
            case .mark:
                let name = timeline.label[row] != 0 ? timeline.strings[timeline.label[row]] : "mark"
                if timeline.duration[row] > 0 {
                    output.slice(
                        name: name, category: ChromeTraceCategory.mark, start: timeline.time[row], duration: timeline.duration[row],
                        tid: tid(thread, &tracks))
                } else {
                    instant(name: name, category: ChromeTraceCategory.mark, row: row, into: &output, tracks: &tracks)
                }
            case .memory:
                output.counter(name: "memory", category: "drain.memory", time: timeline.time[row]) {
                    $0.integer("footprint", timeline.amount[row])
                }
            default:
                instant(name: instantName(row), category: "drain." + kind.traceName, row: row, into: &output, tracks: &tracks) {
                    arguments in
                    writeFields(of: row, into: &arguments)
                    if energy > 0 { arguments.number("energy_j", energy) }
                }
            }
        }
    }

    /// An instant on the event's thread, or on the process when it has none.
    private func instant(
        name: String, category: String, row: Int, into output: inout ChromeEventWriter, tracks: inout TrackTable,
        arguments: ((inout ChromeEventWriter.Arguments) -> Void)? = nil
    ) {
        let thread = timeline.thread[row]
        output.instant(
            name: name, category: category, time: timeline.time[row], tid: tid(thread, &tracks), scope: thread != 0 ? .thread : .process,
            arguments: arguments)
    }

    private func tid(_ thread: StringID, _ tracks: inout TrackTable) -> Int {
        thread != 0 ? tracks.tid(timeline.strings[thread]) : Self.pid
    }

    /// What an instant is called: its type and what tells it apart at a glance.
    private func instantName(_ row: Int) -> String {
        let kind = timeline.kind[row]
        let code = timeline.code[row]
        let label = timeline.label[row] != 0 ? timeline.strings[timeline.label[row]] : nil
        switch kind {
        case .lifecycle:
            return "lifecycle: " + (LifecycleState(rawValue: code)?.traceName ?? "\(code)")
        case .net:
            return "net " + (NetDirection(rawValue: code)?.traceName ?? "\(code)")
        case .disk:
            return "disk " + (DiskOperation(rawValue: code)?.traceName ?? "\(code)")
        case .resource, .backgroundTask, .sensor, .location:
            let action = Action(rawValue: code)?.traceName(for: kind) ?? "\(code)"
            let title = kind.traceName.replacingOccurrences(of: "_", with: " ")
            return label.map { "\(title) \(action): \($0)" } ?? "\(title) \(action)"
        case .memoryWarning:
            return "memory warning"
        case .idleTimer:
            return code == 1 ? "idle timer disabled" : "idle timer enabled"
        case .timer, .poll, .wakeup:
            return label.map { "\(kind.traceName): \($0)" } ?? kind.traceName
        case .unknown:
            return label ?? kind.traceName
        default:
            return kind.traceName
        }
    }

    /// The event's fields under their trace-format names (docs/trace-format.md).
    private func writeFields(of row: Int, into arguments: inout ChromeEventWriter.Arguments) {
        let code = timeline.code[row]
        func string(_ key: String, _ id: StringID) {
            if id != 0 { arguments.string(key, timeline.strings[id]) }
        }
        func action() {
            let kind = timeline.kind[row]
            arguments.string("action", Action(rawValue: code)?.traceName(for: kind) ?? "\(code)")
        }
        switch timeline.kind[row] {
        case .lifecycle:
            arguments.string("state", LifecycleState(rawValue: code)?.traceName ?? "\(code)")
        case .wakeup:
            string("reason", timeline.label[row])
            string("source", timeline.label2[row])
        case .timer:
            string("name", timeline.label[row])
            arguments.seconds("interval", timeline.duration[row])
            arguments.number("tolerance", timeline.value[row])
            arguments.boolean("repeats", code == 1)
        case .poll:
            string("source", timeline.label[row])
            arguments.seconds("interval", timeline.duration[row])
        case .net:
            arguments.string("dir", NetDirection(rawValue: code)?.traceName ?? "\(code)")
            arguments.integer("bytes", timeline.amount[row])
            string("host", timeline.label[row])
            if let link = LinkKind(rawValue: timeline.code2[row]), link != .unspecified {
                arguments.string("iface", link.traceName)
            }
            string("conn", timeline.label2[row])
            if timeline.duration[row] > 0 { arguments.seconds("span", timeline.duration[row]) }
        case .disk:
            arguments.string("op", DiskOperation(rawValue: code)?.traceName ?? "\(code)")
            arguments.integer("bytes", timeline.amount[row])
            string("path", timeline.label[row])
            if timeline.amount2[row] >= 0 { arguments.integer("file_size", timeline.amount2[row]) }
        case .resource:
            action()
            string("kind", timeline.label[row])
            string("id", timeline.label2[row])
        case .backgroundTask:
            action()
            string("id", timeline.label2[row])
        case .frame:
            arguments.boolean("changed", code == 1)
        case .idleTimer:
            arguments.boolean("disabled", code == 1)
        case .sensor:
            action()
            string("kind", timeline.label[row])
            if timeline.value[row] != 0 { arguments.number("rate_hz", timeline.value[row]) }
        case .location:
            action()
            arguments.number("accuracy_m", timeline.value[row])
            arguments.number("distance_filter_m", timeline.value2[row])
        default:
            break
        }
    }

    // MARK: Derived tracks

    /// Each radio's non-idle states as slices named after the state: the run keeps only their
    /// sums, so the radios are replayed (`Pricer.radioSegments(of:)`).
    private func writeRadio(into output: inout ChromeEventWriter, tracks: inout TrackTable) {
        for segment in Pricer(model: model).radioSegments(of: timeline) where segment.state != .idle && segment.end > segment.start {
            let tid = tracks.tid("radio (\(segment.link.traceName))")
            output.slice(
                name: segment.state.rawValue, category: ChromeTraceCategory.priced, start: segment.start,
                duration: segment.end - segment.start, tid: tid
            ) { $0.number("energy_j", segment.joules) }
        }
    }

    /// Average power per bin and cumulative energy per category (`ChromeEnergyCounters`), from
    /// the run's cost bins.
    private func writeEnergy(into output: inout ChromeEventWriter) {
        let bins = priced.costs.bins
        ChromeEnergyCounters(
            categories: EnergyCategory.allCases.map(\.name), binCount: priced.costs.grid.binCount,
            binWidth: priced.costs.grid.width, end: priced.end,
            joules: { bins[$0 * EnergyCategory.count + $1] }
        ).write(into: &output)
    }

    /// The process's and every track's name (`M` events).
    private func writeNames(into output: inout ChromeEventWriter, tracks: TrackTable) {
        output.processName(process ?? "drain")
        for (name, tid) in tracks.names { output.threadName(name, tid: tid) }
    }

    /// Thread ids for track names: `main` is the process's own id, the others count up
    /// from 2 in order of first use.
    private struct TrackTable {
        private var ids: [String: Int] = ["main": ChromeTraceWriter.pid]
        private(set) var names: [(String, Int)] = [("main", ChromeTraceWriter.pid)]

        mutating func tid(_ name: String) -> Int {
            if let id = ids[name] { return id }
            let id = names.count + 1
            ids[name] = id
            names.append((name, id))
            return id
        }
    }
}
