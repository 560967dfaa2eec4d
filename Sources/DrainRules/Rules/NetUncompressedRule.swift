import Algorithms
import DrainModel
import DrainReport
import DrainTrace

/// NET-UNCOMPRESSED: text sent over plain HTTP without compression.
///
/// An HTTP/1.x message (`flows.http`) is plain text when its `Content-Type` is `text/*` or
/// names JSON, XML, JavaScript or ECMAScript (`application/json`, `…+json`, `…+xml`,
/// `application/javascript`…). It is flagged when it has no `Content-Encoding` (or `identity`)
/// and its body is at least `min_body_bytes`: the `Content-Length` when given, else the body
/// bytes the capture saw; a message whose body the capture did not see (an answer to HEAD, a
/// capture cut after the head) is left out. A response takes the path of the request it
/// answers (the n-th response of a connection answers its n-th request). Findings group
/// messages by endpoint and path without its query, as finding keys normalise it: ids in the
/// path (`/items/1234`) become `{n}`, `{hex}` or `{uuid}`.
///
/// The compressed size is an estimate, `compressed_share` × the plain size (the capture holds
/// only the heads, nothing is compressed). Energy: the radio energy of the events that carried
/// each message, from its head to the next head in the same direction of its connection.
///
/// Encrypted flows (TLS or QUIC) cannot be inspected: an `info` finding gives their share of
/// the capture's payload bytes. O(f + m + n) for f flows, m messages and the run's n events,
/// read once when a message is flagged.
public struct NetUncompressedRule: Rule {
    static let minBodyBytes = RuleParameter("min_body_bytes", default: 1000, unit: "B", "text bodies from this size on are flagged (1 KB)")
    static let compressedShare = RuleParameter("compressed_share", default: 0.3, unit: "fraction", "estimated compressed size as a share of the plain size: gzip generally reduces a text response by about 70 % (Yahoo! Exceptional Performance team, \"Best Practices for Speeding Up Your Web Site\", Gzip Components)")

    public static let sharedReads: SharedReads = .flowOfRow

    public static let description = RuleDescription(
        id: "NET-UNCOMPRESSED",
        title: "Text sent without compression",
        area: .network,
        severity: .warning,
        guidance: """
            Text formats (JSON, XML, HTML, JavaScript) shrink to a fraction of their size when \
            compressed, and every byte not sent is radio time not spent. Ask for and send \
            compressed bodies, and keep data formats compact.
            """,
        source: """
            PWR "use compact data formats" (App Programming Guide for iOS, Reduce Your App's \
            Power Consumption); NET "make data formats as compact as possible" (Tune Your \
            Networking Code)
            """,
        fix: "Serve and send text bodies with Content-Encoding gzip or br (and Accept-Encoding on requests), or switch to a compact binary format.",
        parameters: [minBodyBytes, compressedShare],
        triggeringExamples: [
            Scenario("a 40 KB JSON response without Content-Encoding", expect: .warning) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com", remotePort: 80)
                capture.open(api, at: 0)
                capture.exchange(api, at: 0.1, request: 180, response: 40_000, wait: 0.2)
                capture.http(api, at: 0.1, request: true, method: "GET", path: "/v1/feed?page=2")
                capture.http(api, at: 0.3, request: false, status: 200, contentType: "application/json; charset=utf-8", contentLength: 39_800, bodyBytes: 39_800)
                return capture.build(end: 5)
            },
            Scenario("a form posted as plain XML", expect: .warning) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "soap.example.com", remotePort: 80)
                capture.exchange(api, at: 1, request: 6_000, response: 300)
                capture.http(api, at: 1, request: true, method: "POST", path: "/service", contentType: "application/soap+xml", contentLength: 5_800, bodyBytes: 5_800)
                capture.http(api, at: 1.05, request: false, status: 200, contentType: "text/plain", contentLength: 100, bodyBytes: 100)
                return capture.build(end: 5)
            },
            Scenario("encrypted traffic that cannot be inspected", expect: .info) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "secure.example.com")
                capture.open(api, at: 0)
                capture.exchange(api, at: 0.1, request: 500, response: 12_000)
                capture.update(api) { $0.flags.insert(.tls) }
                return capture.build(end: 5)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a gzip-compressed JSON response") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com", remotePort: 80)
                capture.exchange(api, at: 0.1, request: 180, response: 12_000)
                capture.http(api, at: 0.1, request: true, method: "GET", path: "/v1/feed")
                capture.http(api, at: 0.15, request: false, status: 200, contentType: "application/json", contentEncoding: "gzip", contentLength: 11_800, bodyBytes: 11_800)
                return capture.build(end: 5)
            },
            Scenario("an uncompressed image and a short text") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "img.example.com", remotePort: 80)
                capture.exchange(api, at: 0.1, request: 150, response: 90_000)
                capture.http(api, at: 0.1, request: true, method: "GET", path: "/a.png")
                capture.http(api, at: 0.15, request: false, status: 200, contentType: "image/png", contentLength: 89_800, bodyBytes: 89_800)
                capture.exchange(api, at: 1, request: 150, response: 900)
                capture.http(api, at: 1, request: true, method: "GET", path: "/ok")
                capture.http(api, at: 1.05, request: false, status: 200, contentType: "text/plain", contentLength: 700, bodyBytes: 700)
                return capture.build(end: 5)
            },
            Scenario("a trace without a capture") {
                var run = TimelineBuilder()
                run.net(0, .rx, bytes: 50_000, host: "api.example.com")
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let flows = context.timeline.flows
        guard !flows.isEmpty else { return .notApplicable(RuleContext.noCaptureReason) }
        let flagged = flaggedMessages(context)
        var findings = groupFindings(flagged, context)
        if let encrypted = encryptedFinding(context) { findings.append(encrypted) }
        return .findings(findings)
    }

    /// One flagged message: the table row, its body size and the request path it belongs to.
    /// 16 bytes: a long capture flags tens of thousands, held while the rule runs beside others.
    private struct Flagged {
        private var storedMessage: UInt32
        var path: StringID
        var bytes: Int64

        var message: Int { Int(storedMessage) }

        init(message: Int, bytes: Int64, path: StringID) {
            storedMessage = UInt32(message)
            self.path = path
            self.bytes = bytes
        }
    }

    private func flaggedMessages(_ context: RuleContext) -> [Flagged] {
        let timeline = context.timeline
        let http = timeline.flows.http
        let minimum = context[Self.minBodyBytes]
        var plainText = PlainTextBodies(strings: timeline.strings)
        var flagged: [Flagged] = []
        for index in 0..<http.count where plainText.contains(index, of: http) {
            let bytes = Self.bodySize(of: index, in: http)
            guard Double(bytes) >= minimum else { continue }
            // A response's path is that of the request it answers (`HTTPMessageTable.path`).
            flagged.append(Flagged(message: index, bytes: bytes, path: http.path[index]))
        }
        return flagged
    }

    /// The messages of `http` this rule reads when bodies from `minimumBodyBytes` on are
    /// flagged (`min_body_bytes`): the flagged ones, and each one's next message in the same
    /// direction of its flow, which ends the events that carried it (`carriedEnergy`). The
    /// rule's findings on the result are those on `http`: a capture of chatty exchanges keeps a
    /// fraction of its messages through the rules, when memory peaks. (A capture's importer
    /// keeps those of any `min_body_bytes` already.) Expects resolved response paths
    /// (`HTTPMessageTable.resolveResponsePaths()`). O(messages + flows).
    public static func messagesRead(from http: HTTPMessageTable, strings: StringTable, minimumBodyBytes: Double) -> HTTPMessageTable {
        var plainText = PlainTextBodies(strings: strings)
        // Per flow and direction (requests at 2f, responses at 2f + 1): whether its last
        // message so far is flagged.
        var lastIsFlagged = [Bool](repeating: false, count: 2 * (Int(http.flow.max() ?? 0) + 1))
        var kept: [Int] = []
        for index in 0..<http.count {
            let isFlagged = plainText.contains(index, of: http) && Double(bodySize(of: index, in: http)) >= minimumBodyBytes
            let direction = 2 * Int(http.flow[index]) + (http.isRequest[index] ? 0 : 1)
            if isFlagged || lastIsFlagged[direction] { kept.append(index) }
            lastIsFlagged[direction] = isFlagged
        }
        return http.selecting(kept)
    }

    /// A message's body size: its `Content-Length` when given, else the body bytes seen.
    private static func bodySize(of index: Int, in http: HTTPMessageTable) -> Int64 {
        http.contentLength[index] >= 0 ? http.contentLength[index] : http.bodyBytes[index]
    }

    /// Which messages carry a plain-text body that is not encoded
    /// (`HTTPMessageTable.PlainTextHeads`), reading each content type and encoding string once.
    private struct PlainTextBodies {
        let strings: StringTable
        var heads = HTTPMessageTable.PlainTextHeads()

        init(strings: StringTable) {
            self.strings = strings
        }

        mutating func contains(_ index: Int, of http: HTTPMessageTable) -> Bool {
            http.bodyBytes[index] > 0
                && heads.mayCarryPlainText(type: http.contentType[index], encoding: http.contentEncoding[index], strings: strings)
        }
    }

    private struct GroupKey: Hashable {
        var endpoint: StringID
        /// Index of the normalised path in `groupFindings`'s list of them.
        var path: Int32
    }

    private func groupFindings(_ flagged: [Flagged], _ context: RuleContext) -> [Finding] {
        guard !flagged.isEmpty else { return [] }
        let timeline = context.timeline
        let flows = timeline.flows
        let http = flows.http
        let carried = carriedEnergy(flagged, context)
        // Messages are grouped by their path as the finding key normalises it (`/items/1234`
        // and `/items/5678` are `/items/{n}`), so one endpoint's API gives one finding per
        // resource, not one per id it was asked for. Each path string is normalised once.
        var paths: [String] = []
        var pathIndex: [String: Int32] = [:]
        var normalized = [Int32](repeating: -1, count: timeline.strings.count)
        var groupOf: [GroupKey: Int] = [:]
        var order: [GroupKey] = []
        var groups: [[Int]] = []
        for (position, item) in flagged.enumerated() {
            if normalized[Int(item.path)] < 0 {
                // The finding key drops the query (from the first `?` or `#` byte).
                let path = item.path == 0 ? "" : FindingKey.normalize(timeline.strings[item.path])
                let index = pathIndex[path] ?? Int32(paths.count)
                if index == paths.count {
                    paths.append(path)
                    pathIndex[path] = index
                }
                normalized[Int(item.path)] = index
            }
            let key = GroupKey(endpoint: flows.endpoint[Int(http.flow[item.message])], path: normalized[Int(item.path)])
            if let group = groupOf[key] {
                groups[group].append(position)
            } else {
                groupOf[key] = groups.count
                order.append(key)
                groups.append([position])
            }
        }
        let share = context[Self.compressedShare]
        return zip(order, groups).map { key, members in
            let endpoint = timeline.name(key.endpoint, or: "(unnamed endpoint)")
            let path = paths[Int(key.path)].isEmpty ? "(unknown path)" : paths[Int(key.path)]
            let bytes = members.reduce(Int64(0)) { $0 + flagged[$1].bytes }
            let requests = members.filter { http.isRequest[flagged[$0].message] }.count
            let estimate = Double(bytes) * share
            let energy = members.reduce(0) { $0 + carried[$1].energy }
            let firstType = http.contentType[flagged[members[0]].message]
            let evidence = [
                Evidence("endpoint", text: endpoint),
                Evidence("path", text: path),
                Evidence("content type", text: timeline.strings[firstType]),
                Evidence("messages", Double(members.count), unit: "messages"),
                Evidence("requests", Double(requests), unit: "messages"),
                Evidence("responses", Double(members.count - requests), unit: "messages"),
                Evidence("bytes", Double(bytes), unit: "B"),
                Evidence("estimated compressed", estimate, unit: "B"),
                Evidence("estimated saving", Double(bytes) - estimate, unit: "B"),
            ]
            let ranges = members.map { TimeRange(from: carried[$0].start, to: carried[$0].end) }
            return Self.description.finding(
                .warning, subject: endpoint + path,
                message: "\(members.count) text bod\(members.count == 1 ? "y" : "ies") of \(endpoint) \(path) (\(ByteFormat.string(Double(bytes)))) went without Content-Encoding; compressed they would be about \(ByteFormat.string(estimate)).",
                evidence: evidence, energyJ: energy, timeRanges: ranges)
        }
    }

    /// The time and radio energy of the events that carried each flagged message: those of its
    /// connection and direction from its head until the next head in that direction. One pass
    /// over the run's events, each flow and direction's in time order.
    private func carriedEnergy(_ flagged: [Flagged], _ context: RuleContext) -> [(start: Nanoseconds, end: Nanoseconds, energy: Double)] {
        let timeline = context.timeline
        let flows = timeline.flows
        let http = flows.http
        var result = flagged.map { (start: http.time[$0.message], end: http.time[$0.message], energy: 0.0) }
        // Two carriers per chosen flow, its requests' then its responses': the messages each
        // carries, in table order, and the latest whose head came by the end of the events
        // read so far, with its place in `flagged` (in table order), -1 when not flagged.
        var carrierOfFlow = [Int32](repeating: -1, count: flows.count)
        var carrierCount = 0
        for item in flagged where carrierOfFlow[Int(http.flow[item.message])] < 0 {
            carrierOfFlow[Int(http.flow[item.message])] = Int32(carrierCount)
            carrierCount += 2
        }
        let carried = IndexGroups(count: http.count, groups: carrierCount) { message in
            let first = carrierOfFlow[Int(http.flow[message])]
            return first < 0 ? nil : Int(first) + (http.isRequest[message] ? 0 : 1)
        }
        var current = [Int32](repeating: -1, count: carrierCount)
        var position = [Int32](repeating: -1, count: carrierCount)
        let flowOfRow = context.flowOfRow
        for row in 0..<timeline.count {
            guard let flow = flowOfRow(row), carrierOfFlow[flow] >= 0 else { continue }
            let code = timeline.code[row]
            guard code == NetDirection.tx.rawValue || code == NetDirection.rx.rawValue else { continue }
            let requestsGoUp = flows.flags[flow].contains(.deviceOpened)
            let carriesRequests = (code == NetDirection.tx.rawValue) == requestsGoUp
            let place = Int(carrierOfFlow[flow]) + (carriesRequests ? 0 : 1)
            let messages = carried.members(of: place)
            let end = timeline.time[row] + max(0, timeline.duration[row])
            var latest = Int(current[place])
            while latest + 1 < messages.count, http.time[Int(messages[messages.startIndex + latest + 1])] <= end { latest += 1 }
            if latest != Int(current[place]) {
                current[place] = Int32(latest)
                let message = Int(messages[messages.startIndex + latest])
                let found = flagged.partitioningIndex { $0.message >= message }
                position[place] = found < flagged.count && flagged[found].message == message ? Int32(found) : -1
            }
            guard position[place] >= 0 else { continue }
            let flaggedPlace = Int(position[place])
            result[flaggedPlace].energy += context.priced.eventEnergy[row]
            result[flaggedPlace].end = max(result[flaggedPlace].end, end)
        }
        return result
    }

    /// The share of payload bytes on encrypted flows, when there are any.
    private func encryptedFinding(_ context: RuleContext) -> Finding? {
        let flows = context.timeline.flows
        var total: Int64 = 0, encrypted: Int64 = 0, count = 0
        var first: Nanoseconds = .max, last: Nanoseconds = .min
        for flow in 0..<flows.count {
            let payload = flows.payloadUp[flow] + flows.payloadDown[flow]
            total += payload
            guard payload > 0, !flows.flags[flow].isDisjoint(with: [.tls, .quic]) else { continue }
            encrypted += payload
            count += 1
            first = min(first, flows.firstTime[flow])
            last = max(last, flows.lastTime[flow])
        }
        guard encrypted > 0, total > 0 else { return nil }
        let share = Double(encrypted) / Double(total)
        let evidence = [
            Evidence("encrypted payload", Double(encrypted), unit: "B"),
            Evidence("payload", Double(total), unit: "B"),
            Evidence("share not inspected", share * 100, unit: "%"),
            Evidence("encrypted flows", Double(count), unit: "flows"),
        ]
        return Self.description.finding(
            .info, subject: "encrypted payload", title: "Encrypted payload not inspected",
            message: "\(percent(share)) of the capture's payload (\(ByteFormat.string(Double(encrypted))) on \(count) TLS or QUIC flow\(count == 1 ? "" : "s")) is encrypted, so it could not be checked for uncompressed text.",
            evidence: evidence, timeRanges: [TimeRange(from: first, to: last)])
    }
}
