import DrainAggregate
import DrainImport
import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import DrainTraceWriter

/// Turns a priced run and the rules' verdicts into a `Report`: energy totals and bins from
/// the aggregation core, memory, endpoints, per-key breakdown, radio summary and scores.
struct ReportAssembler {
    let priced: PricedTimeline
    let model: DeviceModel
    let binSeconds: Double?

    /// How many keys per category the breakdown keeps.
    static let breakdownLimit = 25
    /// How many radio lane segments and lifecycle marks the report keeps (long captures
    /// would otherwise bloat the HTML): as many as pricing keeps of each radio.
    static let laneLimit = RadioActivity.keptSegmentsPerRadio
    /// How many endpoints the report lists, the costliest first: a capture in which every flow
    /// has a remote address of its own (a scan, DNS to many resolvers) listed 956,044 of them,
    /// a 194 MB JSON and a 392 MB HTML report from an 87 MB capture.
    static let endpointLimit = 5_000

    var timeline: Timeline { priced.timeline }

    /// The wall-clock time of time zero as RFC 3339 UTC, when an input carries a wall clock.
    private var start: String? {
        guard let origin = timeline.wallClockStart else { return nil }
        var text = JSONLine(capacity: JSONFormatter.timestampBound)
        text.format(bound: JSONFormatter.timestampBound) { $0.timestamp(nanosecondsSinceEpoch: origin) }
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// The run's end: the last event, or the end of a radio tail the run caused.
    var end: Nanoseconds { priced.end }

    /// Everything in the report that does not depend on the rules' verdicts: computed while
    /// the rules run (`RuleEngine.evaluate(_:threads:alongside:)`).
    struct Figures {
        let energy: EnergySummary
        let tally: RunTally
        let memory: MemorySummary
        let radio: (summary: RadioSummary, laneTotal: Int)
        let breakdown: (rows: [KeyEnergy], limits: [String: ListLimit])
        let endpoints: (rows: [EndpointSummary], total: Int)
        let bins: (bins: TimelineBins, lifecycleTotal: Int, markTotal: Int)
        let threads: [ThreadEnergy]
        let assumedLink: AssumedLink?
    }

    func figures() -> Figures {
        let tally = RunTally(priced, defaultLink: model.radio.defaultLink == .wifi ? .wifi : .cellular)
        return Figures(
            energy: energySummary(activeS: Clock.seconds(activeDuration)), tally: tally, memory: memorySummary(),
            radio: radioSummary(), breakdown: breakdown(), endpoints: endpoints(), bins: bins(), threads: threadEnergy(tally),
            assumedLink: tally.assumedBytes > 0 ? assumedLink(bytes: tally.assumedBytes) : nil)
    }

    func report(_ figures: Figures, inputs: [InputInfo], diagnostics: [ImportDiagnostics], evaluation: RuleEvaluation) -> Report {
        let durationS = Clock.seconds(end)
        let activeS = Clock.seconds(activeDuration)
        let energy = figures.energy
        let tally = figures.tally
        let memory = figures.memory
        let radio = figures.radio
        let breakdown = figures.breakdown
        let endpoints = figures.endpoints
        let bins = figures.bins
        let threads = figures.threads
        let assumedLink = figures.assumedLink
        let findings = evaluation.findings.map { finding in
            // Every network finding says which link was assumed, and how to change it.
            guard let assumedLink, finding.area == .network else { return finding }
            var stated = finding
            stated.message += " Traffic without a known link was " + assumedLink.statement + "."
            return stated
        }
        let guidance = GuidanceScore.scores(evaluation.results)
        // MetricKit aggregates are not priced: a score of their zero energy would be a false 100.
        let energyScore =
            timeline.isAggregatesOnly
            ? nil
            : EnergyScore.score(
                averageMilliwatts: energy.averageMw, score90: model.score.score90Mw.value, score50: model.score.score50Mw.value)
        return Report(
            generator: Analysis.generator,
            model: modelInfo,
            thresholds: evaluation.thresholds,
            inputs: reportInputs(inputs, diagnostics: diagnostics),
            start: start,
            durationS: durationS,
            activeDurationS: activeS,
            timeGaps: timeGapSummary,
            energy: energy,
            memory: memory,
            scores: Scores(energy: energyScore, guidance: guidance.overall, areas: guidance.areas),
            findings: findings,
            rules: evaluation.results,
            endpoints: endpoints.rows,
            breakdown: breakdown.rows,
            threads: Array(threads.prefix(Self.breakdownLimit)),
            assumedLink: assumedLink,
            radio: radio.summary,
            timeline: bins.bins, metrickit: timeline.aggregates,
            metrics: metrics(
                energy: energy, memory: memory, radio: radio.summary, findings: findings, tally: tally, activeS: activeS),
            limits: ReportLimits(
                breakdown: breakdown.limits, endpoints: ListLimit(limit: Self.endpointLimit, total: endpoints.total),
                bursts: ListLimit(limit: RadioSummary.burstLimit, total: radio.summary.burstCount),
                radioLane: ListLimit(limit: Self.laneLimit, total: radio.laneTotal),
                lifecycle: ListLimit(limit: Self.laneLimit, total: bins.lifecycleTotal),
                marks: ListLimit(limit: Self.laneLimit, total: bins.markTotal),
                threads: ListLimit(limit: Self.breakdownLimit, total: threads.count)))
    }

    private var modelInfo: ModelInfo {
        ModelInfo(
            name: model.name, title: model.title, defaultLink: model.radio.defaultLink.rawValue,
            cellular: model.radio.cellular.rawValue, burstGapS: model.radio.burstGapS.value,
            memoryLimitBytes: model.memory.limitBytes.value, batteryWh: model.battery.capacityWh.value,
            score90Mw: model.score.score90Mw.value, score50Mw: model.score.score50Mw.value)
    }

    private func reportInputs(_ inputs: [InputInfo], diagnostics: [ImportDiagnostics]) -> [ReportInput] {
        let origin = timeline.wallClockStart
        return inputs.enumerated().map { index, info in
            var offset = 0.0
            if let origin, let start = info.wallClockStart { offset = Clock.seconds(start - origin) }
            return ReportInput(
                path: info.path, format: info.format, events: info.events, packets: info.packets,
                process: info.process, offsetS: offset, diagnostics: diagnostics[index].entries, linkSource: info.linkSource)
        }
    }

    /// Totals, and average power and battery drain over the active duration (a run's time
    /// gaps were not observed, so they dilute nothing).
    private func energySummary(activeS: Double) -> EnergySummary {
        let totals = priced.costs.totals
        let total = totals.reduce(0, +)
        let averageW = activeS > 0 ? total / activeS : 0
        let capacity = model.battery.capacityWh.value
        var byCategory: [String: Double] = [:]
        for category in EnergyCategory.allCases { byCategory[category.name] = totals[Int(category.rawValue)] }
        return EnergySummary(
            totalJ: total, averageMw: averageW * 1000, mwh: total / 3.6,
            batteryPctPerHour: capacity > 0 ? averageW / capacity * 100 : 0, byCategory: byCategory)
    }

    private func memorySummary() -> MemorySummary {
        var peak: Int64?
        var peakTime: Nanoseconds = 0
        var samples = 0
        var warnings = 0
        for row in 0..<timeline.count {
            switch timeline.kind[row] {
            case .memory:
                samples += 1
                if peak == nil || timeline.amount[row] > peak! {
                    peak = timeline.amount[row]
                    peakTime = timeline.time[row]
                }
            case .memoryWarning:
                warnings += 1
            default:
                continue
            }
        }
        let limit = model.memory.limitBytes.value
        return MemorySummary(
            peakBytes: peak.map(Double.init), peakTimeS: peak.map { _ in Clock.seconds(peakTime) }, limitBytes: limit,
            peakShareOfLimit: peak.map { limit > 0 ? Double($0) / limit : 0 }, samples: samples, warnings: warnings)
    }

    /// Traffic per host from `net` events, the `endpointLimit` costliest, and how many hosts
    /// there were; bursts as `BurstDetector` splits each host's traffic.
    private func endpoints() -> (rows: [EndpointSummary], total: Int) {
        // Each host gets a place of its own, in the order of its first packet, and the figures
        // are kept per place: a long capture interns a string per connection and request path,
        // and tables indexed by string id took 37 bytes a string while the rules ran beside
        // them, when memory peaks. (A dictionary cost three hashes per packet.)
        var place = [Int32](repeating: -1, count: timeline.strings.count)
        var hosts: [StringID] = []
        var up: [Int64] = []
        var down: [Int64] = []
        var connections: [Int] = []
        // Packets of one host mostly follow the previous one's connection: only a change is
        // looked up in the set of (host, connection) pairs.
        var lastConnection: [StringID] = []
        var pairs = Set<UInt64>()
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            let host = timeline.label[row]
            if place[Int(host)] < 0 {
                place[Int(host)] = Int32(hosts.count)
                hosts.append(host)
                up.append(0)
                down.append(0)
                connections.append(0)
                lastConnection.append(0)
            }
            let index = Int(place[Int(host)])
            if timeline.code[row] == NetDirection.tx.rawValue {
                up[index] += timeline.amount[row]
            } else {
                down[index] += timeline.amount[row]
            }
            let connection = timeline.label2[row]
            if connection != 0, connection != lastConnection[index] {
                lastConnection[index] = connection
                if pairs.insert(UInt64(host) << 32 | UInt64(connection)).inserted { connections[index] += 1 }
            }
        }
        guard !hosts.isEmpty else { return ([], 0) }
        var bursts = [Int](repeating: 0, count: hosts.count)
        BurstDetector.forEachBurstStart(in: priced, model: model, by: .endpoint) { burst, _ in bursts[Int(place[Int(burst.endpoint)])] += 1 }
        // Local by address (multicast, link-local), or because every capture flow with the host
        // stayed on the local link (a subnet broadcast, seen by its link-layer destination).
        var localFlows = [Bool](repeating: false, count: hosts.count)
        var routedFlows = [Bool](repeating: false, count: hosts.count)
        for (endpoint, flags) in zip(timeline.flows.endpoint, timeline.flows.flags) {
            let hostPlace = Int(place[Int(endpoint)])
            guard hostPlace >= 0 else { continue }
            if flags.contains(.local) { localFlows[hostPlace] = true } else { routedFlows[hostPlace] = true }
        }
        let energy = hosts.map { priced.costs.energy(of: $0, in: .radio) }
        func name(_ host: StringID) -> String { host == 0 ? "(unknown)" : timeline.strings[host] }
        // Hosts are listed by energy, then by name (then by string id: "(unknown)" may also be a
        // host's name). Only those at or above the energy of the last one listed can be listed,
        // and of those tied at it only the first by name, so only the listed ones get a summary:
        // a capture of a million hosts, each sent one datagram alike, would otherwise make and
        // sort a million summaries to list 5,000.
        var listed = Array(hosts.indices)
        if hosts.count > Self.endpointLimit {
            let lowest = energy.firstInOrder(Self.endpointLimit, by: >)[Self.endpointLimit - 1]
            listed.removeAll { energy[$0] < lowest }
        }
        if listed.count > Self.endpointLimit {
            listed = listed.map { (index: $0, name: name(hosts[$0])) }
                .firstInOrder(Self.endpointLimit) {
                    (energy[$0.index], $1.name, hosts[$1.index]) > (energy[$1.index], $0.name, hosts[$0.index])
                }
                .map(\.index)
        }
        // In the order of the string ids, which the stable sort keeps among equal energies and names.
        let rows = listed.sorted { hosts[$0] < hosts[$1] }.map { index in
            let host = hosts[index]
            let local = localFlows[index] && !routedFlows[index]
            return EndpointSummary(
                endpoint: name(host), bytesUp: up[index], bytesDown: down[index], bursts: bursts[index],
                connections: connections[index], energyJ: energy[index],
                local: host != 0 && (local || CaptureOptions.isLocalAddress(timeline.strings[host])))
        }
        .sorted { ($0.energyJ, $1.endpoint) > ($1.energyJ, $0.endpoint) }
        return (rows, hosts.count)
    }

    /// The costliest keys of each category, and how many keys each category had.
    private func breakdown() -> (rows: [KeyEnergy], limits: [String: ListLimit]) {
        var rows: [KeyEnergy] = []
        var limits: [String: ListLimit] = [:]
        for category in EnergyCategory.allCases {
            let charges = priced.costs.charges(for: category)
            limits[category.name] = ListLimit(limit: Self.breakdownLimit, total: charges.count)
            let costliest = charges
                .sorted { $0.energyJ != $1.energyJ ? $0.energyJ > $1.energyJ : $0.key < $1.key }
                .prefix(Self.breakdownLimit)
            for charge in costliest {
                rows.append(
                    KeyEnergy(
                        category: category.name, key: charge.key == 0 ? "(unattributed)" : timeline.strings[charge.key],
                        energyJ: charge.energyJ, entries: charge.entries))
            }
        }
        return (rows, limits)
    }

    /// The model's default link, for traffic no input said the link of.
    private func assumedLink(bytes: Int64) -> AssumedLink {
        let wifi = model.radio.defaultLink == .wifi
        return AssumedLink(link: wifi ? "wifi" : "cellular", technology: wifi ? nil : model.radio.cellular.displayName, bytes: bytes)
    }

    /// CPU and GPU slices per thread, the costliest first (then by name).
    private func threadEnergy(_ tally: RunTally) -> [ThreadEnergy] {
        tally.threads.map { entry in
            ThreadEnergy(
                thread: entry.thread == 0 ? "(no thread)" : timeline.strings[entry.thread], busyS: Clock.seconds(entry.busy),
                energyJ: entry.energy, slices: entry.slices)
        }
        .sorted { ($0.energyJ, $1.thread) > ($1.energyJ, $0.thread) }
    }

    /// The radio summary, and how many non-idle segments the lane had before its cut.
    private func radioSummary() -> (summary: RadioSummary, laneTotal: Int) {
        let radio = priced.radio
        let lane = radio.firstBusySegments(limit: Self.laneLimit).map { segment in
            RadioLaneSegment(
                link: segment.link.traceName, state: segment.state.rawValue, startS: Clock.seconds(segment.start),
                endS: Clock.seconds(segment.end))
        }
        let states = LinkKind.allCases.flatMap { link in
            RadioState.allCases.compactMap { state in
                radio.total(of: link, in: state).map { total in
                    RadioSummary.StateTotal(
                        link: link.traceName, state: state.rawValue, timeS: total.seconds, energyJ: total.joules, attributed: state != .idle)
                }
            }
        }
        .sorted { ($0.link, RadioState.order($0.state)) < ($1.link, RadioState.order($1.state)) }
        var bytes: Int64 = 0
        for row in 0..<timeline.count where timeline.kind[row] == .net { bytes += timeline.amount[row] }
        let radioJoules = states.filter(\.attributed).reduce(0) { $0 + $1.energyJ }
        let bursts = BurstDetector.firstBursts(in: priced, model: model, by: .link, limit: RadioSummary.burstLimit)
        let summary = RadioSummary(
            states: states, promotions: priced.radio.promotions,
            joulesPerKB: bytes > 0 ? radioJoules / (Double(bytes) / 1000) : nil, lane: lane,
            bursts: burstSummaries(bursts.bursts), burstCount: bursts.count)
        return (summary, radio.busySegmentCount)
    }

    /// Each burst with its bytes each way and its busiest endpoint. O(strings + events in the
    /// bursts' spans).
    private func burstSummaries(_ bursts: [Burst]) -> [BurstSummary] {
        let radios = RadioLinks(radio: model.radio)
        var endpoints = EndpointBytes(strings: timeline.strings.count)
        return bursts.map { burst in
            var up: Int64 = 0
            var down: Int64 = 0
            for row in burst.firstRow...burst.lastRow where timeline.kind[row] == .net {
                guard radios.radio(forCode: timeline.code2[row]) == burst.link else { continue }
                let bytes = max(0, timeline.amount[row])
                if timeline.code[row] == NetDirection.tx.rawValue { up += bytes } else { down += bytes }
                endpoints.add(bytes, to: timeline.label[row])
            }
            let (busiest, count) = endpoints.takeBusiest()
            return BurstSummary(
                link: burst.link.traceName, startS: Clock.seconds(burst.start), endS: Clock.seconds(burst.end),
                endpoint: busiest == 0 ? "(unknown)" : timeline.strings[busiest], endpoints: count, bytesUp: up,
                bytesDown: down, events: burst.events, energyJ: burst.energy)
        }
    }

    /// Bytes per endpoint of one burst at a time, through a place per string of the timeline
    /// (4 bytes each) that each burst fills and clears, rather than a dictionary per burst: on
    /// a capture of a million hosts, each sent one datagram, those dictionaries took about 3 %
    /// of the run.
    private struct EndpointBytes {
        private var place: [Int32]
        private var endpoints: [StringID] = []
        private var bytes: [Int64] = []

        init(strings: Int) {
            place = [Int32](repeating: -1, count: strings)
        }

        /// O(1) amortised.
        mutating func add(_ count: Int64, to endpoint: StringID) {
            let index = Int(endpoint)
            if place[index] < 0 {
                place[index] = Int32(endpoints.count)
                endpoints.append(endpoint)
                bytes.append(0)
            }
            bytes[Int(place[index])] += count
        }

        /// The endpoint with the most bytes (the lowest string id of those with as many) or 0
        /// when none was added, and how many were added; then forgets them. O(endpoints added).
        mutating func takeBusiest() -> (busiest: StringID, count: Int) {
            var busiest: Int?
            for index in endpoints.indices {
                place[Int(endpoints[index])] = -1
                guard let best = busiest else {
                    busiest = index
                    continue
                }
                if (bytes[index], endpoints[best]) > (bytes[best], endpoints[index]) { busiest = index }
            }
            let result = (busiest.map { endpoints[$0] } ?? 0, endpoints.count)
            endpoints.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            return result
        }
    }

    /// Energy per bin and category (the cost bins pricing summed on the chart's grid), memory
    /// peaks and lifecycle changes for the timeline chart. A run with time gaps is binned
    /// segment by segment, so a gap is a break, not empty bins.
    private func bins() -> (bins: TimelineBins, lifecycleTotal: Int, markTotal: Int) {
        let grid = priced.costs.grid
        let spans = timeline.gaps.segments(end: end)
        let firstBins = grid.segmentStarts.map(\.firstBin)
        let count = grid.binCount
        let categories = EnergyCategory.count
        let energy = (0..<count).map { bin in Array(priced.costs.bins[(bin * categories)..<((bin + 1) * categories)]) }
        var memory = [Double?](repeating: nil, count: count)
        var lifecycle: [LifecycleMark] = []
        var lifecycleTotal = 0
        var marks: [TimelineMark] = []
        var markTotal = 0
        for row in 0..<timeline.count {
            switch timeline.kind[row] {
            case .memory:
                let index = grid.bin(of: timeline.time[row])
                memory[index] = max(memory[index] ?? 0, Double(timeline.amount[row]))
            case .mark:
                markTotal += 1
                guard marks.count < Self.laneLimit else { continue }
                let name = timeline.label[row] != 0 ? timeline.strings[timeline.label[row]] : "mark"
                marks.append(TimelineMark(timeS: Clock.seconds(timeline.time[row]), name: name))
            case .lifecycle:
                lifecycleTotal += 1
                guard lifecycle.count < Self.laneLimit else { continue }
                let state = LifecycleState(rawValue: timeline.code[row])?.traceName ?? "unknown"
                lifecycle.append(LifecycleMark(timeS: Clock.seconds(timeline.time[row]), state: state))
            default:
                continue
            }
        }
        let segments =
            timeline.gaps.isEmpty
            ? nil
            : zip(spans, firstBins).map { span, first in
                TimelineSegment(startS: Clock.seconds(span.start), endS: Clock.seconds(span.end), firstBin: first)
            }
        let bins = TimelineBins(
            binS: binSeconds ?? Clock.seconds(grid.width), categories: EnergyCategory.allCases.map(\.name), energyJ: energy,
            memoryPeakBytes: memory, lifecycle: lifecycle, marks: marks, segments: segments)
        return (bins, lifecycleTotal, markTotal)
    }
}

extension RadioState {
    /// Display order of states: the order of `allCases`.
    static func order(_ name: String) -> Int {
        allCases.firstIndex { $0.rawValue == name } ?? allCases.count
    }
}
