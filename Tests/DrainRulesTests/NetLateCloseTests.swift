import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetLateCloseTests {
    let id = "NET-LATE-CLOSE"

    /// A connection to `host` opened at 0 s with one exchange (request at 0.1 s, answer at
    /// 0.15 s, its last data) and a close `delay` seconds after the answer.
    func connection(
        closingAfter delay: Double, by side: FlowTable.Side = .device, reset: Bool = false, link: LinkKind = .cellular,
        host: String = "api.example.com"
    ) -> Timeline {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: host, link: link)
        capture.open(api, at: 0)
        capture.exchange(api, at: 0.1, request: 400, response: 3_000, wait: 0.05)
        capture.close(api, at: 0.15 + delay, by: side, reset: reset)
        return capture.build(end: 60)
    }

    @Test func aFINThirtySecondsLatePaysAPromotionAndATailOnLTE() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        let finding = try #require(evaluate(connection(closingAfter: 30), model: model).findings(of: id).first)
        #expect(finding.texts("endpoint") == ["api.example.com"])
        #expect(finding.number("late closes") == 1)
        #expect(nearly(finding.number("longest delay"), 30))
        #expect(nearly(finding.number("radio tail"), lte.tailSeconds))
        // The FIN (54 B up) finds the radio idle: promotion, its transfer, a full tail.
        #expect(nearly(finding.energyJ, lte.isolated(CaptureBuilder.headerBytes, .tx)))
        #expect(nearly(finding.number("closing energy"), lte.isolated(CaptureBuilder.headerBytes, .tx)))
        #expect(finding.texts("flow").count == 1)
        #expect(finding.texts("flow").first?.hasPrefix("tcp 10.0.0.2:50000 → 203.0.113.1:443: closed 30.00 s after its last data") == true)
        #expect(finding.timeRanges == [TimeRange(startS: 0.15, endS: 30.15)])
    }

    @Test func aCloseWithinTheTailIsOnTime() throws {
        let model = try builtinModel("iphone-lte")
        let tail = try LTECosts(model).tailSeconds  // 10.12 s
        #expect(evaluate(connection(closingAfter: tail - 0.5), model: model).status(of: id) == .pass)
        #expect(evaluate(connection(closingAfter: tail + 0.5), model: model).status(of: id) == .warning)
    }

    @Test func theTailIsTheModelsForTheFlowsRadio() throws {
        var umtsModel = try builtinModel("iphone-lte")
        umtsModel.radio.cellular = .umts
        let umts = try #require(umtsModel.radio.umts)
        let umtsTail = umts.dchTailS.value + umts.fachTailS.value  // 14 s
        // 12 s is past LTE's 10.12 s tail but within UMTS's DCH + FACH timers.
        #expect(evaluate(connection(closingAfter: 12), model: try builtinModel("iphone-lte")).status(of: id) == .warning)
        #expect(evaluate(connection(closingAfter: 12), model: umtsModel).status(of: id) == .pass)
        // The exchange waited for the 2 s promotion, so its tail ran until 2 + 14 s: a FIN at
        // 17.15 s finds the radio idle.
        let late = try #require(evaluate(connection(closingAfter: umtsTail + 3), model: umtsModel).findings(of: id).first)
        #expect(nearly(late.number("radio tail"), umtsTail))
        // The FIN fits in FACH size but the radio is idle: IDLE → DCH, DCH timer, FACH timer.
        #expect(nearly(late.energyJ, umts.idleToDchS.value * umts.idleToDchW.value + umts.dchTailS.value * umts.dchW.value + umts.fachTailS.value * umts.fachW.value))
        // Wi-Fi's tail is 0.25 s: a close 1 s late wakes it for one tail.
        let wifi = TestModel.phone.radio.wifi
        let onWiFi = try #require(evaluate(connection(closingAfter: 1, link: .wifi)).findings(of: id).first)
        #expect(nearly(onWiFi.number("radio tail"), wifi.tailS.value))
        #expect(nearly(onWiFi.energyJ, wifi.tailS.value * wifi.tailW.value))
        #expect(onWiFi.texts("endpoint") == ["api.example.com"])
    }

    @Test func resetsCountAndClosesByTheServerDoNot() {
        #expect(evaluate(connection(closingAfter: 30, reset: true)).status(of: id) == .warning)
        #expect(evaluate(connection(closingAfter: 30, by: .remote)).status(of: id) == .pass)
        #expect(evaluate(connection(closingAfter: 30, by: .remote, reset: true)).status(of: id) == .pass)
        #expect(evaluate(connection(closingAfter: 30, link: .ethernet)).status(of: id) == .pass)
    }

    @Test func lateClosesToOneEndpointMakeOneFinding() throws {
        var capture = CaptureBuilder()
        for (index, delay) in [20.0, 40.0].enumerated() {
            let t = Double(index) * 100
            let api = capture.tcp(to: "api.example.com", link: .wifi)
            capture.open(api, at: t)
            capture.exchange(api, at: t + 0.1, request: 400, response: 3_000)
            capture.close(api, at: t + 0.15 + delay)
        }
        let findings = evaluate(capture.build(end: 200)).findings(of: id)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.number("late closes") == 2)
        #expect(nearly(finding.number("longest delay"), 40))
        #expect(finding.texts("flow").count == 2)
        #expect(finding.timeRanges.count == 2)
    }

    @Test func graceIsAParameter() throws {
        let relaxed = try configuration("rules: { NET-LATE-CLOSE: { grace_s: 5 } }")
        let timeline = connection(closingAfter: 4, link: .wifi)
        #expect(evaluate(timeline).status(of: id) == .warning)
        #expect(evaluate(timeline, configuration: relaxed).status(of: id) == .pass)
    }

    @Test func aTraceIsNotApplicable() throws {
        var run = TimelineBuilder()
        run.net(0, .tx, bytes: 300, host: "api.example.com")
        let result = try #require(evaluate(run.build(end: 5)).result(of: id))
        #expect(result.status == .notApplicable)
    }
}
