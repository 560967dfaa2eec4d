import DrainModel
import DrainReport
import DrainTrace

/// NET-CELLULAR: a lot of data over the cellular radio.
///
/// Traffic is cellular when its `net` events go to the cellular radio: their interface says
/// cellular (a capture's interface name, `--link cellular`, a trace's `iface`), or it is
/// unstated and the model's default link is cellular, as pricing treats it. More than
/// `max_cellular_bytes` makes a finding, with the bytes of every interface and what the same
/// cellular traffic would cost on the model's Wi-Fi radio: the cellular events are priced again
/// at the same times on a Wi-Fi radio of their own (`RadioSimulation`). O(n), plus one pricing
/// of the cellular traffic when a finding is made. MetricKit's cellular byte totals are judged
/// too (see `evaluateAggregates`).
public struct NetCellularRule: AggregateRule {
    static let maxCellularBytes = RuleParameter("max_cellular_bytes", default: 5_000_000, unit: "B", "cellular bytes above which a warning is raised (5 MB)")

    public static let description = RuleDescription(
        id: "NET-CELLULAR",
        title: "Large transfers over cellular",
        area: .network,
        severity: .warning,
        guidance: """
            Moving data over the cellular radio costs several times the energy of Wi-Fi for the \
            same bytes, and tails after each transfer cost more too. Let large transfers that are \
            not urgent wait for Wi-Fi.
            """,
        source: """
            PWR "connect over Wi-Fi instead of cellular whenever possible" (App Programming Guide \
            for iOS, Reduce Your App's Power Consumption); NET "Using Wi-Fi"
            """,
        fix: "Defer large transfers that can wait to Wi-Fi: allowsExpensiveNetworkAccess = false, or a discretionary background URLSession.",
        parameters: [maxCellularBytes],
        triggeringExamples: [
            Scenario("an 8 MB download over cellular", expect: .warning) {
                var capture = CaptureBuilder()
                let download = capture.tcp(to: "cdn.example.com", link: .cellular)
                capture.open(download, at: 0)
                capture.packet(download, at: 0.2, .rx, bytes: 8_000_000, payload: 7_700_000, segments: 5_300, span: 12)
                capture.packet(download, at: 0.25, .tx, bytes: 150_000, span: 12)
                return capture.build(end: 30)
            },
            Scenario("many medium uploads over cellular", expect: .warning) {
                var run = TimelineBuilder()
                for upload in 0..<12 { run.net(Double(upload) * 5, .tx, bytes: 500_000, host: "photos.example.com", link: .cellular) }
                return run.build(end: 70)
            },
            Scenario("MetricKit: 150,000 kB over cellular", expect: .warning) {
                .metricKit {
                    $0.cellularDownBytes = 80_000_000
                    $0.cellularUpBytes = 70_000_000
                    $0.wifiDownBytes = 60_000_000
                }
            },
        ],
        nonTriggeringExamples: [
            Scenario("MetricKit: 4,000 kB over cellular, 60,000 kB over Wi-Fi") {
                .metricKit {
                    $0.cellularDownBytes = 4_000_000
                    $0.wifiDownBytes = 60_000_000
                }
            },
            Scenario("4 MB over cellular") {
                var run = TimelineBuilder()
                for part in 0..<4 { run.net(Double(part), .rx, bytes: 1_000_000, host: "cdn.example.com", link: .cellular) }
                return run.build(end: 20)
            },
            Scenario("50 MB over Wi-Fi") {
                var run = TimelineBuilder()
                for part in 0..<50 { run.net(Double(part) * 0.2, .rx, bytes: 1_000_000, host: "cdn.example.com", link: .wifi) }
                return run.build(end: 20)
            },
            Scenario("no network traffic") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 1)
                return run.build(end: 10)
            },
        ])

    public init() {}

    public func evaluateEvents(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let radios = RadioLinks(radio: context.model.radio)
        var bytesByLink = [Int64](repeating: 0, count: LinkKind.allCases.count)
        var cellularBytes: Int64 = 0
        var cellularEnergy = 0.0
        var first: Nanoseconds = .max, last: Nanoseconds = .min
        var netEvents = 0
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            netEvents += 1
            let link = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
            let bytes = max(0, timeline.amount[row])
            bytesByLink[Int(link.rawValue)] += bytes
            guard radios.radio(for: link) == .cellular else { continue }
            cellularBytes += bytes
            cellularEnergy += context.priced.eventEnergy[row]
            first = min(first, timeline.time[row])
            last = max(last, timeline.time[row] + max(0, timeline.duration[row]))
        }
        guard netEvents > 0 else { return .notApplicable(RuleContext.noTrafficReason) }
        guard Double(cellularBytes) > context[Self.maxCellularBytes] else { return .findings([]) }
        let wifiEnergy = RadioSimulation.energy(in: timeline, model: context.model) { overWiFi in
            for row in 0..<timeline.count where timeline.kind[row] == .net {
                if radios.radio(forCode: timeline.code2[row]) == .cellular {
                    overWiFi.place(row: row, at: timeline.time[row], link: .wifi)
                }
            }
        }
        let cellularName = context.radioName(.cellular)
        var evidence = [Evidence("cellular bytes", Double(cellularBytes), unit: "B")]
        for link in LinkKind.allCases where bytesByLink[Int(link.rawValue)] > 0 {
            let name =
                link == .unspecified
                ? "bytes over an unstated link (priced as \(context.model.radio.defaultLink == .wifi ? "Wi-Fi" : cellularName))"
                : "bytes over \(link == .cellular ? cellularName : link == .wifi ? "Wi-Fi" : link.traceName)"
            evidence.append(Evidence(name, Double(bytesByLink[Int(link.rawValue)]), unit: "B"))
        }
        let difference = cellularEnergy - wifiEnergy
        evidence += [
            Evidence("cellular radio energy", cellularEnergy, unit: "J"),
            Evidence("same traffic over Wi-Fi", wifiEnergy, unit: "J"),
            Evidence("energy difference", difference, unit: "J"),
        ]
        let total = bytesByLink.reduce(0, +)
        let comparison = difference >= 0 ? "\(fixed(difference, 3)) J less" : "\(fixed(-difference, 3)) J more"
        return .findings([
            Self.description.finding(
                .warning,
                message: "\(ByteFormat.string(Double(cellularBytes))) of \(ByteFormat.string(Double(total))) went over \(cellularName), costing \(fixed(cellularEnergy, 3)) J of radio energy; the same traffic over Wi-Fi would cost \(fixed(wifiEnergy, 3)) J, \(comparison).",
                evidence: evidence, energyJ: cellularEnergy, timeRanges: [TimeRange(from: first, to: last)])
        ])
    }
}
