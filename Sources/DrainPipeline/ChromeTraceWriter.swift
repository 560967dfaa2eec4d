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
/// only on the run: the same run gives the same bytes. O(events + bins + radio segments).
struct ChromeTraceWriter {
    let priced: PricedTimeline
    /// The process name for the process track (the first input's), if known.
    let process: String?
    /// Width of the energy counters' bins in seconds.
    let binSeconds: Double
    let generator: String
    let model: String

    /// The one process of the export; its main thread has `tid == pid`, as importers expect.
    private static let pid = 1

    private var timeline: Timeline { priced.timeline }

    func render() -> String {
        var output = ChromeTraceOutput()
        output.text.reserveCapacity(160 * (timeline.count + 64))
        output.text += "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":"
        output.string(generator)
        output.text += ",\"model\":"
        output.string(model)
        output.text += "},\"traceEvents\":[\n"
        var tracks = TrackTable()
        writeEvents(into: &output, tracks: &tracks)
        writeRadio(into: &output, tracks: &tracks)
        writeEnergy(into: &output)
        writeNames(into: &output, tracks: tracks)
        // The last event ends without a comma.
        if output.text.hasSuffix(",\n") { output.text.removeLast(2) }
        output.text += "\n]}\n"
        return output.text
    }

    // MARK: Timeline events

    private func writeEvents(into output: inout ChromeTraceOutput, tracks: inout TrackTable) {
        for row in 0..<timeline.count {
            let kind = timeline.kind[row]
            let thread = timeline.thread[row]
            let energy = row < priced.eventEnergy.count ? priced.eventEnergy[row] : 0
            switch kind {
            case .cpu, .gpu:
                let tid = thread != 0 ? tracks.tid(timeline.strings[thread]) : tracks.tid(kind.traceName)
                let name = timeline.label[row] != 0 ? timeline.strings[timeline.label[row]] : kind.traceName
                output.begin(
                    phase: "X", name: name, category: kind == .cpu ? ChromeTraceCategory.cpu : ChromeTraceCategory.gpu,
                    time: timeline.time[row], tid: tid)
                output.duration(timeline.duration[row])
                output.arguments { arguments in if energy > 0 { arguments.number("energy_j", energy) } }
            case .mark:
                let name = timeline.label[row] != 0 ? timeline.strings[timeline.label[row]] : "mark"
                if timeline.duration[row] > 0 {
                    output.begin(phase: "X", name: name, category: ChromeTraceCategory.mark, time: timeline.time[row], tid: tid(thread, &tracks))
                    output.duration(timeline.duration[row])
                } else {
                    instant(name: name, category: ChromeTraceCategory.mark, row: row, into: &output, tracks: &tracks)
                }
                output.end()
            case .memory:
                output.begin(phase: "C", name: "memory", category: "drain.memory", time: timeline.time[row], tid: Self.pid)
                output.arguments { $0.integer("footprint", timeline.amount[row]) }
            default:
                instant(name: instantName(row), category: "drain." + kind.traceName, row: row, into: &output, tracks: &tracks)
                output.arguments { arguments in
                    writeFields(of: row, into: &arguments)
                    if energy > 0 { arguments.number("energy_j", energy) }
                }
            }
        }
    }

    /// Starts an instant on the event's thread, or on the process when it has none.
    private func instant(
        name: String, category: String, row: Int, into output: inout ChromeTraceOutput, tracks: inout TrackTable
    ) {
        let thread = timeline.thread[row]
        output.begin(phase: "i", name: name, category: category, time: timeline.time[row], tid: tid(thread, &tracks))
        output.field("s", thread != 0 ? "t" : "p")
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
    private func writeFields(of row: Int, into arguments: inout ChromeTraceOutput.Arguments) {
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

    /// Each radio's non-idle states as slices named after the state.
    private func writeRadio(into output: inout ChromeTraceOutput, tracks: inout TrackTable) {
        for segment in priced.radio.segments where segment.state != .idle && segment.end > segment.start {
            let tid = tracks.tid("radio (\(segment.link.traceName))")
            output.begin(phase: "X", name: segment.state.rawValue, category: ChromeTraceCategory.priced, time: segment.start, tid: tid)
            output.duration(segment.end - segment.start)
            output.arguments { $0.number("energy_j", segment.joules) }
        }
    }

    /// Average power per bin and cumulative energy per category, for the categories the run
    /// spent energy in; a last sample at the end of the run closes both tracks.
    private func writeEnergy(into output: inout ChromeTraceOutput) {
        let width = max(1, Clock.nanoseconds(binSeconds))
        let end = priced.end
        let count = max(1, Int((end + width - 1) / width))
        let bins = Aggregate.binnedTotals(priced.ledger, origin: 0, binWidth: width, binCount: count)
        let categories = EnergyCategory.allCases.filter { category in
            (0..<count).contains { bins[$0 * EnergyCategory.count + Int(category.rawValue)] != 0 }
        }
        guard !categories.isEmpty else { return }
        var cumulative = [Double](repeating: 0, count: EnergyCategory.count)
        for bin in 0...count {
            let start = Nanoseconds(bin) * width
            let time = min(start, end)
            output.begin(phase: "C", name: "power (mW)", category: ChromeTraceCategory.priced, time: time, tid: Self.pid)
            output.arguments { arguments in
                for category in categories {
                    let joules = bin < count ? bins[bin * EnergyCategory.count + Int(category.rawValue)] : 0
                    let binEnd = min(start + width, end)
                    let seconds = Clock.seconds(binEnd - start)
                    arguments.number(category.name, bin < count && seconds > 0 ? joules / seconds * 1000 : 0)
                }
            }
            output.begin(phase: "C", name: "energy (J)", category: ChromeTraceCategory.priced, time: time, tid: Self.pid)
            output.arguments { arguments in
                for category in categories { arguments.number(category.name, cumulative[Int(category.rawValue)]) }
            }
            if bin < count {
                for category in categories {
                    cumulative[Int(category.rawValue)] += bins[bin * EnergyCategory.count + Int(category.rawValue)]
                }
            }
        }
    }

    /// The process's and every track's name (`M` events).
    private func writeNames(into output: inout ChromeTraceOutput, tracks: TrackTable) {
        output.metadata("process_name", tid: Self.pid, name: process ?? "drain")
        for (name, tid) in tracks.names { output.metadata("thread_name", tid: tid, name: name) }
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
