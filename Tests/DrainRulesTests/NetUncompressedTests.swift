import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetUncompressedTests {
    let id = "NET-UNCOMPRESSED"

    /// One plain HTTP request on a fresh connection and its response with `type` and `encoding`.
    func response(
        type: String?, encoding: String? = nil, length: Int64 = -1, body: Int64, path: String = "/v1/items?page=3"
    ) -> Timeline {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        capture.open(api, at: 0)
        capture.exchange(api, at: 0.1, request: 200, response: body + 300, wait: 0.2)
        capture.http(api, at: 0.1, request: true, method: "GET", path: path)
        capture.http(api, at: 0.3, request: false, status: 200, contentType: type, contentEncoding: encoding, contentLength: length, bodyBytes: body)
        return capture.build(end: 5)
    }

    @Test func anUncompressedJSONResponseNamesItsPathSizeAndEstimate() throws {
        let finding = try #require(evaluate(response(type: "application/json", length: 40_000, body: 40_000)).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.texts("endpoint") == ["api.example.com"])
        // The response takes the request's path; the query is dropped for grouping.
        #expect(finding.texts("path") == ["/v1/items"])
        #expect(finding.texts("content type") == ["application/json"])
        #expect(finding.number("bytes") == 40_000)
        #expect(finding.number("responses") == 1 && finding.number("requests") == 0)
        // gzip makes text about 70 % smaller: 30 % of 40 000 B.
        #expect(nearly(finding.number("estimated compressed"), 12_000))
        #expect(nearly(finding.number("estimated saving"), 28_000))
        // The response packet at 0.3 s on Wi-Fi: 0.2 s active since the request, then the tail.
        let wifi = TestModel.phone.radio.wifi
        #expect(nearly(finding.energyJ, 0.2 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value))
        #expect(finding.timeRanges == [TimeRange(startS: 0.3, endS: 0.3)])
    }

    @Test(arguments: [
        ("text/html; charset=utf-8", true), ("TEXT/CSS", true), ("application/vnd.api+json", true),
        ("image/svg+xml", true), ("application/javascript", true), ("application/x-ndjson", true),
        ("application/xml", true), ("image/png", false), ("application/octet-stream", false),
        ("application/pdf", false), ("multipart/form-data; boundary=x", false),
    ])
    func textContentTypes(_ type: String, _ isText: Bool) {
        let status = evaluate(response(type: type, length: 5_000, body: 5_000)).status(of: id)
        #expect(status == (isText ? .warning : .pass))
    }

    @Test func contentEncodingClearsTheMessageUnlessItIsIdentity() {
        #expect(evaluate(response(type: "application/json", encoding: "gzip", length: 5_000, body: 5_000)).status(of: id) == .pass)
        #expect(evaluate(response(type: "application/json", encoding: "br", length: 5_000, body: 5_000)).status(of: id) == .pass)
        #expect(evaluate(response(type: "application/json", encoding: " Identity ", length: 5_000, body: 5_000)).status(of: id) == .warning)
    }

    @Test func bodiesFromOneKilobyteOnAreFlagged() {
        #expect(evaluate(response(type: "text/plain", length: 999, body: 999)).status(of: id) == .pass)
        #expect(evaluate(response(type: "text/plain", length: 1000, body: 1000)).status(of: id) == .warning)
        // Without Content-Length the body bytes seen decide.
        #expect(evaluate(response(type: "text/plain", body: 1000)).status(of: id) == .warning)
        #expect(evaluate(response(type: "text/plain", body: 999)).status(of: id) == .pass)
    }

    @Test func aMessageWhoseBodyWasNotSeenIsLeftOut() {
        // An answer to HEAD declares the length but carries no body.
        #expect(evaluate(response(type: "text/html", length: 50_000, body: 0)).status(of: id) == .pass)
    }

    @Test func responsesTakeThePathsOfTheirRequestsInOrder() throws {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        capture.packet(api, at: 0, .tx, bytes: 400, payload: 346)
        capture.http(api, at: 0, request: true, method: "GET", path: "/a")
        capture.http(api, at: 0, request: true, method: "GET", path: "/b?x=1")
        capture.packet(api, at: 0.2, .rx, bytes: 9_000, payload: 8_900)
        capture.http(api, at: 0.2, request: false, status: 200, contentType: "text/plain", contentLength: 2_000, bodyBytes: 2_000)
        capture.http(api, at: 0.2, request: false, status: 200, contentType: "application/json", contentLength: 6_000, bodyBytes: 6_000)
        let findings = evaluate(capture.build(end: 5)).findings(of: id)
        #expect(findings.map { $0.texts("path") } == [["/a"], ["/b"]])
        #expect(findings.map { $0.number("bytes") } == [2_000, 6_000])
    }

    @Test func aResponseSeenBeforeAnyRequestOfItsConnectionHasNoPathButCountsAsAnAnswer() throws {
        // The capture started mid-exchange: the first response answers a request it never saw,
        // so it takes no path; being the connection's first answer, the next response answers
        // the second request.
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        capture.packet(api, at: 0, .rx, bytes: 3_000, payload: 2_900)
        capture.http(api, at: 0, request: false, status: 200, contentType: "text/plain", contentLength: 2_000, bodyBytes: 2_000)
        capture.packet(api, at: 0.5, .tx, bytes: 800, payload: 700)
        capture.http(api, at: 0.5, request: true, method: "GET", path: "/first")
        capture.http(api, at: 0.5, request: true, method: "GET", path: "/second")
        capture.packet(api, at: 0.7, .rx, bytes: 9_000, payload: 8_900)
        capture.http(api, at: 0.7, request: false, status: 200, contentType: "application/json", contentLength: 6_000, bodyBytes: 6_000)
        let findings = evaluate(capture.build(end: 5)).findings(of: id)
        #expect(findings.map { $0.texts("path") } == [["(unknown path)"], ["/second"]])
        #expect(findings.map { $0.number("bytes") } == [2_000, 6_000])
    }

    @Test func theQueryStartsAtTheFirstQuestionMarkEvenWithAMarkCombiningWithIt() throws {
        // "?" followed by U+0301 is one Character but still starts the query.
        let timeline = response(type: "text/plain", length: 2_000, body: 2_000, path: "/search?\u{301}q=é")
        let finding = try #require(evaluate(timeline).findings(of: id).first)
        #expect(finding.texts("path") == ["/search"])
    }

    @Test func idsInPathsGroupAsTheFindingKeyNormalisesThem() throws {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        for (index, path) in ["/v2/items/1234", "/v2/items/98765/comments", "/v2/items/5678?full=1", "/v2/items/77"].enumerated() {
            let t = Double(index)
            capture.exchange(api, at: t, request: 200, response: 2_300)
            capture.http(api, at: t, request: true, method: "GET", path: path)
            capture.http(api, at: t + 0.1, request: false, status: 200, contentType: "application/json", contentLength: 2_000, bodyBytes: 2_000)
        }
        let findings = evaluate(capture.build(end: 10)).findings(of: id)
        // Two numeric ids of four digits or more become {n}; "77" is too short to be taken for one.
        #expect(findings.map { $0.texts("path") } == [["/v2/items/{n}"], ["/v2/items/{n}/comments"], ["/v2/items/77"]])
        #expect(findings.map { $0.number("messages") } == [2, 1, 1])
        #expect(findings.map(\.key) == [
            "NET-UNCOMPRESSED:api.example.com/v2/items/{n}", "NET-UNCOMPRESSED:api.example.com/v2/items/{n}/comments",
            "NET-UNCOMPRESSED:api.example.com/v2/items/77",
        ])
    }

    /// A compressed response between two flagged ones on one connection takes its own packets:
    /// each flagged body is charged the packets from its head to the next head, flagged or not.
    @Test func aResponseThatIsNotFlaggedEndsTheFlaggedOneBeforeIt() throws {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        capture.open(api, at: 0)
        for (index, encoding) in [nil, "gzip", nil].enumerated() {
            let t = 0.1 + Double(index) * 30
            capture.exchange(api, at: t, request: 200, response: 20_300, wait: 0.2)
            capture.http(api, at: t, request: true, method: "GET", path: "/v1/feed")
            capture.http(
                api, at: t + 0.2, request: false, status: 200, contentType: "application/json", contentEncoding: encoding,
                contentLength: 20_000, bodyBytes: 20_000)
        }
        let finding = try #require(evaluate(capture.build(end: 70)).findings(of: id).first)
        #expect(finding.number("messages") == 2 && finding.number("bytes") == 40_000)
        // Each response packet, 30 s after the last traffic (past the Wi-Fi tail): 0.2 s active
        // since its request, then the tail. The gzip response's packet is charged to no finding.
        let wifi = TestModel.phone.radio.wifi
        #expect(wifi.tailS.value < 29.8)
        #expect(nearly(finding.energyJ, 2 * (0.2 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value)))
        #expect(finding.timeRanges == [TimeRange(startS: 0.3, endS: 0.3), TimeRange(startS: 60.3, endS: 60.3)])
    }

    /// Two connections whose messages interleave — plain-text bodies flagged at the default
    /// 1 KB or only below it, compressed and binary bodies between them, a request body — and a
    /// third connection with a response and no request. Table rows: 0 the lone response
    /// (text); then for each exchange its request and response, on the cdn (rows 1–2, 7–8,
    /// 13–14) or the api (3–4, 5–6, 9–10, 11–12).
    func mixedExchanges() -> Timeline {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        let cdn = capture.tcp(to: "cdn.example.com", remotePort: 80)
        let lone = capture.tcp(to: "lone.example.com", remotePort: 80)
        capture.open(api, at: 0)
        capture.open(cdn, at: 0)
        capture.http(lone, at: 0.05, request: false, status: 200, contentType: "text/plain", contentLength: 3_000, bodyBytes: 3_000)
        let responses: [(type: String, encoding: String?, bytes: Int64)] = [
            ("application/json", nil, 20_000), ("application/json", "gzip", 9_000), ("text/html", nil, 600),
            ("image/png", nil, 50_000), ("application/json", "identity", 4_000), ("application/json", "br", 7_000),
            ("application/json", nil, 12_000),
        ]
        for (index, response) in responses.enumerated() {
            let t = 0.1 + Double(index) * 20
            let connection = index.isMultiple(of: 3) ? cdn : api
            let posts = index == 2
            capture.exchange(connection, at: t, request: 900, response: response.bytes + 300, wait: 0.2)
            capture.http(
                connection, at: t, request: true, method: posts ? "POST" : "GET", path: "/v1/items?page=\(index)",
                contentType: posts ? "application/json" : nil, contentLength: posts ? 700 : -1, bodyBytes: posts ? 700 : 0)
            capture.http(
                connection, at: t + 0.2, request: false, status: 200, contentType: response.type,
                contentEncoding: response.encoding, contentLength: response.bytes, bodyBytes: response.bytes)
        }
        return capture.build(end: 200)
    }

    /// The messages flagged at the threshold stay, and so does the next message in the same
    /// direction of each one's connection, which ends the packets that carried it; the rest
    /// go. Flagged at 1 KB: rows 0, 2, 10 and 14, ended by rows 8 and 12; at 100 B the POST
    /// body (5) and the HTML page (6) too, the POST ended by the next request (9). A response
    /// has the path of the request it answers.
    @Test func theMessagesItReadsAreTheFlaggedOnesAndTheNextInTheirDirection() {
        let timeline = mixedExchanges()
        let http = timeline.flows.http
        #expect(http.count == 15)
        func read(from minimum: Double) -> [HTTPMessageTable.Message] {
            let read = NetUncompressedRule.messagesRead(from: http, strings: timeline.strings, minimumBodyBytes: minimum)
            return (0..<read.count).map { read[$0] }
        }
        #expect(read(from: 1000) == [0, 2, 8, 10, 12, 14].map { http[$0] })
        #expect(read(from: 100) == [0, 2, 5, 6, 8, 9, 10, 12, 14].map { http[$0] })
        #expect(read(from: 100_000).isEmpty)
        #expect(timeline.strings[http[6].path] == "/v1/items?page=2")
        #expect(timeline.strings[http[14].path] == "/v1/items?page=6")
        #expect(http[0].path == 0)
    }

    /// The whole evaluation — every rule's — is the same once the messages NET-UNCOMPRESSED
    /// does not read are dropped: on every rule's examples and the mixed exchanges, at the
    /// default threshold, at one that flags the short texts too, and with the rule disabled,
    /// when none stay. Flagged by default: the lone response, the cdn's two JSON bodies and
    /// the api's identity-encoded one; at 100 B the POST body and the HTML page join the api's.
    @Test(arguments: [nil, "min_body_bytes: 100", "enabled: false"])
    func theEvaluationIsTheSameOnTheMessagesItReads(_ setting: String?) throws {
        let configuration = try setting.map { try RuleConfiguration.parse("rules:\n  NET-UNCOMPRESSED:\n    \($0)\n", path: "rules.yaml") }
            ?? RuleConfiguration()
        for timeline in [mixedExchanges()] + RuleExample.all.map({ $0.scenario.timeline(for: TestModel.phone) }) {
            var reduced = timeline
            RuleEngine(model: TestModel.phone, configuration: configuration).releaseUnread(from: &reduced)
            #expect(evaluate(reduced, configuration: configuration) == evaluate(timeline, configuration: configuration))
            if setting == "enabled: false" { #expect(reduced.flows.http.count == 0) }
        }
        let findings = evaluate(mixedExchanges(), configuration: configuration).findings(of: id)
        let expected: [Double] = switch setting {
        case nil: [1, 2, 1]
        case "min_body_bytes: 100": [1, 2, 3]
        default: []
        }
        #expect(findings.map { $0.number("messages") } == expected)
    }

    @Test func uploadsAreFlaggedAndGroupedByPath() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "collect.example.com", link: .cellular, remotePort: 80)
        for post in 0..<3 {
            let t = Double(post) * 20
            capture.exchange(api, at: t, request: 3_200, response: 100)
            capture.http(api, at: t, request: true, method: "POST", path: "/events?seq=\(post)", contentType: "application/json", contentLength: 3_000, bodyBytes: 3_000)
            capture.http(api, at: t + 0.05, request: false, status: 204)
        }
        let finding = try #require(evaluate(capture.build(end: 60), model: model).findings(of: id).first)
        #expect(finding.texts("path") == ["/events"])
        #expect(finding.number("messages") == 3 && finding.number("requests") == 3)
        #expect(finding.number("bytes") == 9_000)
        #expect(finding.timeRanges.count == 3)
        // Each upload finds the LTE radio idle (20 s > the 10.12 s tail): its packet pays the
        // promotion and its own transfer; the time until the answer and the tail are charged
        // to the answer.
        #expect(nearly(finding.energyJ, 3 * (lte.promotion + lte.transfer(3_200 + CaptureBuilder.headerBytes, .tx))))
    }

    @Test func theShareOfEncryptedPayloadIsReportedAsInfo() throws {
        var capture = CaptureBuilder()
        let secure = capture.tcp(to: "secure.example.com")
        capture.exchange(secure, at: 0, request: 500, response: 14_500)
        capture.update(secure) { $0.flags.insert(.tls) }
        let plain = capture.tcp(to: "api.example.com", remotePort: 80)
        capture.exchange(plain, at: 1, request: 200, response: 4_800)
        let quic = capture.tcp(to: "video.example.com")
        capture.packet(quic, at: 2, .rx, bytes: 20_500, payload: 20_000)
        capture.update(quic) { $0.flags.insert(.quic) }
        let findings = evaluate(capture.build(end: 5)).findings(of: id)
        let finding = try #require(findings.first { $0.severity == .info })
        #expect(findings.count == 1)
        // (15 000 + 20 000) encrypted of (15 000 + 5 000 + 20 000) payload bytes.
        #expect(finding.number("encrypted payload") == 35_000)
        #expect(finding.number("payload") == 40_000)
        #expect(nearly(finding.number("share not inspected"), 87.5))
        #expect(finding.number("encrypted flows") == 2)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 2)])
    }

    @Test func aCaptureWithNothingToCheckPassesAndATraceIsNotApplicable() {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com")
        capture.exchange(api, at: 0, request: 100, response: 100)
        #expect(evaluate(capture.build(end: 5)).status(of: id) == .pass)
        var run = TimelineBuilder()
        run.net(0, .rx, bytes: 50_000, host: "api.example.com")
        let result = evaluate(run.build(end: 5)).result(of: id)
        #expect(result?.status == .notApplicable)
        #expect(result?.reason?.contains("packet capture") == true)
    }
}
