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

    @Test func aFINThirtySecondsLateWakesTheRadioForAPromotionAndATailOnLTE() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        let finding = try #require(evaluate(connection(closingAfter: 30), model: model).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.texts("endpoint") == ["api.example.com"])
        #expect(finding.number("late closes") == 1)
        #expect(finding.number("closes that woke the radio") == 1)
        #expect(nearly(finding.number("longest delay"), 30))
        #expect(nearly(finding.number("radio tail"), lte.tailSeconds))
        // The FIN finds the radio idle: promotion_s × promotion_w, then a whole tail. Its 54 B
        // of transfer are not the close's doing.
        #expect(nearly(finding.energyJ, lte.promotion + lte.tail))
        #expect(nearly(finding.number("closing energy"), lte.promotion + lte.tail))
        #expect(finding.texts("flow").count == 1)
        #expect(finding.texts("flow").first?.hasPrefix("tcp 10.0.0.2:50000 → 203.0.113.1:443: closed 30.00 s after its last data, woke the radio") == true)
        #expect(finding.message.hasSuffix("the close woke the radio again, costing \(fixed3(lte.promotion + lte.tail)) J of promotion and tail."))
        #expect(finding.timeRanges == [TimeRange(startS: 0.15, endS: 30.15)])
    }

    /// `connection(closingAfter: 30)` on LTE, with another host's traffic at `other` seconds:
    /// single packets, or a download spanning 1 s.
    func lateCloseBeside(_ other: [Double], download: Bool = false) -> Timeline {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", link: .cellular)
        capture.open(api, at: 0)
        capture.exchange(api, at: 0.1, request: 400, response: 3_000, wait: 0.05)
        let cdn = capture.tcp(to: "cdn.example.com", link: .cellular)
        for t in other {
            capture.packet(cdn, at: t, .rx, bytes: 800_000, payload: 780_000, segments: 540, span: download ? 1 : 0)
        }
        capture.close(api, at: 30.15)
        return capture.build(end: 60)
    }

    @Test func aFINDuringAnotherFlowsBurstIsInfoAndCostsNothing() throws {
        let model = try builtinModel("iphone-lte")
        // The download from 29.6 s to 30.6 s keeps the radio connected: the FIN at 30.15 s is
        // inside it and moves no state of the radio.
        let finding = try #require(evaluate(lateCloseBeside([29.6], download: true), model: model).findings(of: id).first)
        #expect(finding.severity == .info)
        #expect(finding.energyJ == 0)
        #expect(finding.number("closes that woke the radio") == 0)
        #expect(!finding.message.contains("woke"))
        #expect(!finding.message.contains("costing"))
        #expect(finding.message.hasSuffix("but other traffic had the radio up at the time: the close did not wake it and added no measurable radio energy."))
        #expect(finding.texts("flow").first?.hasSuffix("the radio was already up, 0.000 J") == true)
    }

    @Test func aFINInAnotherFlowsTailIsInfoWithTheTailItAdds() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        // The other flow's packet at 27 s wakes the radio, served when the promotion ends at
        // 27.26 s. The FIN at 30.15 s comes 2.89 s into its tail: no wake-up, and the radio goes
        // idle a tail after the FIN instead, 2.89 s later; that adds the tail's first 2.89 s.
        let added = lte.tail(over: 30.15 - 27 - lte.lte.promotionS.value)
        let finding = try #require(evaluate(lateCloseBeside([27]), model: model).findings(of: id).first)
        #expect(finding.severity == .info)
        #expect(nearly(finding.energyJ, added))
        #expect(!finding.message.contains("woke"))
        #expect(finding.message.hasSuffix("the close did not wake it and only lengthened its tail, by \(fixed3(added)) J."))
        // Other traffic after the FIN does not change what the FIN found.
        let before = try #require(evaluate(lateCloseBeside([31]), model: model).findings(of: id).first)
        #expect(before.severity == .warning)
        #expect(before.number("closes that woke the radio") == 1)
    }

    @Test func aGroupWarnsWhenOneOfItsClosesWokeTheRadio() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var capture = CaptureBuilder()
        for (index, t) in [0.0, 100].enumerated() {
            let api = capture.tcp(to: "api.example.com", link: .cellular)
            capture.open(api, at: t)
            capture.exchange(api, at: t + 0.1, request: 400, response: 3_000, wait: 0.05)
            capture.close(api, at: t + 30.15)
            // The second close comes while another host's download keeps the radio up.
            if index == 1 {
                let cdn = capture.tcp(to: "cdn.example.com", link: .cellular)
                capture.packet(cdn, at: t + 29.6, .rx, bytes: 800_000, payload: 780_000, segments: 540, span: 1)
            }
        }
        let finding = try #require(evaluate(capture.build(end: 200), model: model).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("late closes") == 2)
        #expect(finding.number("closes that woke the radio") == 1)
        #expect(nearly(finding.energyJ, lte.promotion + lte.tail))
        #expect(finding.message.hasSuffix("the closes woke the radio once, costing \(fixed3(lte.promotion + lte.tail)) J of promotion and tails; the other close came while the radio was up."))
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
