import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetCellularTests {
    let id = "NET-CELLULAR"

    /// A download of `bytes` received over `seconds` from time 0, as one capture event.
    func download(_ bytes: Int64, seconds: Double = 10, link: LinkKind = .cellular) -> Timeline {
        var capture = CaptureBuilder()
        let cdn = capture.tcp(to: "cdn.example.com", link: link)
        capture.packet(cdn, at: 0, .rx, bytes: bytes, payload: bytes - bytes / 30, segments: 1_000, span: seconds)
        return capture.build(end: 30)
    }

    @Test func sixMegabytesOverLTEComparedWithWiFi() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        let finding = try #require(evaluate(download(6_000_000), model: model).findings(of: id).first)
        // LTE: the promotion, continuous reception at β from its end to the end of the 10 s span,
        // α_down × 48 Mbit, then the tail.
        let cellular = lte.promotion + (10 - lte.lte.promotionS.value) * lte.lte.connectedW.value
            + lte.transfer(6_000_000, .rx) + lte.tail
        // Wi-Fi: active for the 10 s (no promotion; iphone-lte's Wi-Fi has no α), then the tail.
        let wifi = model.radio.wifi
        let overWiFi = 10 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value
        #expect(nearly(finding.number("cellular radio energy"), cellular))
        #expect(nearly(finding.number("same traffic over Wi-Fi"), overWiFi))
        #expect(nearly(finding.number("energy difference"), cellular - overWiFi))
        #expect(nearly(finding.energyJ, cellular))
        #expect(finding.number("cellular bytes") == 6_000_000)
        #expect(finding.number("bytes over cellular (LTE)") == 6_000_000)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 10)])
        #expect(finding.severity == .warning)
    }

    @Test func moreThanFiveMegabytesIsFlagged() {
        #expect(evaluate(download(5_000_000)).status(of: id) == .pass)
        #expect(evaluate(download(5_000_001)).status(of: id) == .warning)
    }

    @Test func unstatedTrafficFollowsTheModelsDefaultLink() throws {
        var run = TimelineBuilder()
        run.net(0, .rx, bytes: 6_000_000, host: "cdn.example.com")
        run.net(1, .rx, bytes: 2_000_000, host: "cdn.example.com", link: .wifi)
        let timeline = run.build(end: 20)
        let onLTE = try #require(evaluate(timeline, model: try builtinModel("iphone-lte")).findings(of: id).first)
        #expect(onLTE.number("cellular bytes") == 6_000_000)
        #expect(onLTE.number("bytes over an unstated link (priced as cellular (LTE))") == 6_000_000)
        #expect(onLTE.number("bytes over Wi-Fi") == 2_000_000)
        #expect(evaluate(timeline, model: try builtinModel("iphone-wifi")).status(of: id) == .pass)
    }

    @Test func aUMTSModelIsComparedWithItsOwnMachine() throws {
        var model = try builtinModel("iphone-lte")
        model.radio.cellular = .umts
        let umts = try #require(model.radio.umts)
        var run = TimelineBuilder()
        run.net(0, .rx, bytes: 6_000_000, host: "cdn.example.com", link: .cellular)
        let finding = try #require(evaluate(run.build(end: 30), model: model).findings(of: id).first)
        // One large packet: IDLE → DCH promotion, the DCH timer, then FACH; no α in UMTS.
        let cellular = umts.idleToDchS.value * umts.idleToDchW.value + umts.dchTailS.value * umts.dchW.value
            + umts.fachTailS.value * umts.fachW.value
        let wifi = model.radio.wifi
        #expect(nearly(finding.number("cellular radio energy"), cellular))
        #expect(nearly(finding.number("same traffic over Wi-Fi"), wifi.tailS.value * wifi.tailW.value))
        #expect(finding.number("bytes over cellular (3G UMTS)") == 6_000_000)
    }

    @Test func otherInterfacesAreListedButNotCounted() throws {
        var run = TimelineBuilder()
        run.net(0, .rx, bytes: 6_000_000, host: "cdn.example.com", link: .cellular)
        run.net(1, .rx, bytes: 9_000_000, host: "nas.local", link: .ethernet)
        run.net(2, .tx, bytes: 1_000, host: "localhost", link: .loopback)
        let finding = try #require(evaluate(run.build(end: 20)).findings(of: id).first)
        #expect(finding.number("cellular bytes") == 6_000_000)
        #expect(finding.number("bytes over ethernet") == 9_000_000)
        #expect(finding.number("bytes over loopback") == 1_000)
        #expect(evaluate(download(9_000_000, link: .ethernet)).status(of: id) == .pass)
    }
}
