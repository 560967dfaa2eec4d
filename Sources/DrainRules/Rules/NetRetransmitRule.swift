import DrainModel
import DrainReport
import DrainTrace

/// NET-RETRANSMIT: a TCP flow that sent many segments twice.
///
/// For each TCP flow with at least `min_segments` data segments (both ways, retransmissions
/// included), the retransmit share is retransmitted segments / data segments, as the capture
/// counted them (a reordered segment looks the same as a retransmitted one). Above
/// `info_share` it is an `info` finding, above `warning_share` a warning.
///
/// The radio time spent on retransmissions is an estimate: the retransmit share of the time
/// the flow's radio was out of idle between the flow's first and last data (each segment
/// taking an equal share of the radio time of the transfer). The energy is the same share of
/// the radio energy charged to the flow's events. The flagged flows of one endpoint make one
/// finding (its key names the endpoint), at the severity of the worst: it describes the flow
/// with the highest share and carries every flagged flow's energy and time range. The radio
/// times of all findings are measured in one replay of the run's radios (`RadioBusyTime`).
/// O(f + n + s·g) for f flows, the run's n events (read once for the joules of each flow,
/// `FlowEnergy`), s radio segments and g findings.
public struct NetRetransmitRule: Rule {
    static let minSegments = RuleParameter("min_segments", default: 20, unit: "segments", "data segments a flow needs before its retransmissions are judged")
    static let infoShare = RuleParameter("info_share", default: 0.02, unit: "fraction", "retransmitted share of data segments above which an info finding is made")
    static let warningShare = RuleParameter("warning_share", default: 0.10, unit: "fraction", "retransmitted share of data segments above which the finding is a warning")

    public static let sharedReads: SharedReads = .flowEnergy

    public static let description = RuleDescription(
        id: "NET-RETRANSMIT",
        title: "TCP retransmissions",
        area: .network,
        severity: .info,
        guidance: """
            Lost packets are sent again, and every retransmission keeps the radio up a little \
            longer; on a poor link they can double a transfer's cost. Expect loss at any time: \
            resume interrupted transfers instead of restarting them, and avoid sending on a \
            failing link.
            """,
        source: """
            NET "packets can be lost at any time; be robust" (App Programming Guide for iOS, Tune \
            Your Networking Code)
            """,
        fix: "Make transfers resumable (HTTP range requests), back off while the link is poor, and watch for path changes instead of retrying blindly.",
        parameters: [minSegments, infoShare, warningShare],
        triggeringExamples: [
            Scenario("a download with 3 % of its segments retransmitted", expect: .info) {
                var capture = CaptureBuilder()
                let download = capture.tcp(to: "cdn.example.com")
                capture.open(download, at: 0)
                capture.packet(download, at: 0.1, .rx, bytes: 300_000, payload: 289_000, segments: 200, span: 2)
                capture.update(download) { $0.retransmits = 6 }
                return capture.build(end: 5)
            },
            Scenario("an upload on a lossy link, 16 % retransmitted", expect: .warning) {
                var capture = CaptureBuilder()
                let upload = capture.tcp(to: "upload.example.com", link: .cellular)
                capture.open(upload, at: 0)
                capture.packet(upload, at: 0.5, .tx, bytes: 75_000, payload: 72_000, segments: 50, span: 6)
                capture.update(upload) { $0.retransmits = 8 }
                return capture.build(end: 20)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a short flow with retransmissions") {
                var capture = CaptureBuilder()
                let flow = capture.tcp(to: "api.example.com")
                capture.packet(flow, at: 0.1, .rx, bytes: 28_000, payload: 27_000, segments: 19, span: 0.5)
                capture.update(flow) { $0.retransmits = 5 }
                return capture.build(end: 5)
            },
            Scenario("a download with 2 % retransmitted") {
                var capture = CaptureBuilder()
                let download = capture.tcp(to: "cdn.example.com")
                capture.packet(download, at: 0.1, .rx, bytes: 750_000, payload: 720_000, segments: 500, span: 3)
                capture.update(download) { $0.retransmits = 10 }
                return capture.build(end: 5)
            },
            Scenario("a trace without a capture") {
                var run = TimelineBuilder()
                run.net(0, .rx, bytes: 300_000, host: "cdn.example.com")
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let flows = context.timeline.flows
        guard !flows.isEmpty else { return .notApplicable(RuleContext.noCaptureReason) }
        let minimum = context[Self.minSegments]
        let infoShare = context[Self.infoShare]
        var flagged: [(flow: Int, share: Double)] = []
        for flow in 0..<flows.count where flows.transport[flow] == 6 && flows.dataSegments[flow] > 0 {
            let segments = Double(flows.dataSegments[flow])
            let share = Double(flows.retransmits[flow]) / segments
            if segments >= minimum, share > infoShare { flagged.append((flow, share)) }
        }
        guard !flagged.isEmpty else { return .findings([]) }
        let energy = context.flowEnergy
        let groups = flows.groupedByEndpoint(flagged, flow: \.flow)
        let worst = groups.map { group in
            group.indices.max { lhs, rhs in group[lhs].share != group[rhs].share ? group[lhs].share < group[rhs].share : lhs > rhs } ?? 0
        }
        // The radio time during each group's worst transfer, all measured in one replay of the radios.
        var windows: [RadioBusyTime.Window] = []
        let window = zip(groups, worst).map { group, worst -> Int? in
            let flow = group[worst].flow
            let start = flows.firstDataTime[flow], end = flows.lastDataTime[flow]
            guard let radio = context.radioLink(for: flows.link[flow]), start != FlowTable.never, end != FlowTable.never else { return nil }
            windows.append(RadioBusyTime.Window(radio: radio, start: start, end: end))
            return windows.count - 1
        }
        let busy = RadioBusyTime.measure(windows, in: context.timeline, model: context.model)
        return .findings(
            groups.indices.map { index in
                let radioTime = window[index].map { Clock.seconds(busy[$0]) } ?? 0
                return finding(flagged: groups[index], worst: worst[index], radioTime: radioTime, energy: energy, context)
            })
    }

    /// The finding of one endpoint's flagged flows (at least one), `worst` the index of the one
    /// with the highest share, during whose transfer the radio was up `radioTime` seconds.
    private func finding(
        flagged: [(flow: Int, share: Double)], worst: Int, radioTime: Double, energy flowEnergy: FlowEnergy, _ context: RuleContext
    ) -> Finding {
        let timeline = context.timeline
        let flows = timeline.flows
        let flow = flagged[worst].flow, share = flagged[worst].share
        let connection = timeline.name(flows.connection[flow], or: "(unnamed connection)")
        let endpoint = timeline.name(flows.endpoint[flow], or: "(unnamed endpoint)")
        // Each flagged flow's radio energy, once: the worst's is evidence, their shares the energy.
        let flowEnergies = flagged.map { flowEnergy.total[$0.flow] }
        let flowEnergy = flowEnergies[worst]
        let energy = zip(flagged, flowEnergies).reduce(0.0) { $0 + $1.0.share * $1.1 }
        let severity: Severity = share > context[Self.warningShare] ? .warning : .info
        var evidence = [
            Evidence("connection", text: connection),
            Evidence("endpoint", text: endpoint),
            Evidence("data segments", Double(flows.dataSegments[flow]), unit: "segments"),
            Evidence("retransmits", Double(flows.retransmits[flow]), unit: "segments"),
            Evidence("retransmit share", share * 100, unit: "%"),
            Evidence("radio time during the transfer", radioTime, unit: "s"),
            Evidence("radio time on retransmits (estimate)", share * radioTime, unit: "s"),
            Evidence("flow radio energy", flowEnergy, unit: "J"),
        ]
        var message = "\(connection) (\(endpoint)) retransmitted \(flows.retransmits[flow]) of \(flows.dataSegments[flow]) data segments (\(percent(share))); at that share of the \(fixed(radioTime, 2)) s the radio was up during the transfer, about \(fixed(share * radioTime, 2)) s of radio time went to them."
        if flagged.count > 1 {
            let retransmits = flagged.reduce(0) { $0 + Int(flows.retransmits[$1.flow]) }
            let segments = flagged.reduce(0) { $0 + Int(flows.dataSegments[$1.flow]) }
            evidence += [
                Evidence("flagged connections", Double(flagged.count), unit: "connections"),
                Evidence("retransmits, all flagged connections", Double(retransmits), unit: "segments"),
                Evidence("data segments, all flagged connections", Double(segments), unit: "segments"),
            ]
            message = "\(flagged.count) connections to \(endpoint) retransmitted \(retransmits) of \(segments) data segments in all; the worst, " + message
        }
        let ranges = flagged.map { item in
            let start = flows.firstDataTime[item.flow], end = flows.lastDataTime[item.flow]
            return start == FlowTable.never
                ? TimeRange(from: flows.firstTime[item.flow], to: flows.lastTime[item.flow]) : TimeRange(from: start, to: max(start, end))
        }
        return Self.description.finding(
            severity, subject: endpoint, message: message, evidence: evidence, energyJ: energy,
            timeRanges: ranges.sorted { ($0.startS, $0.endS) < ($1.startS, $1.endS) })
    }
}
