import DrainTrace
import Testing
@testable import DrainModel

/// `net` events priced through `Pricer`: link routing, ledger entries per host, totals.
struct RadioPricingTests {
    let lteModel: DeviceModel
    let wifiModel: DeviceModel

    init() throws {
        lteModel = try builtinModel("iphone-lte")
        wifiModel = try builtinModel("iphone-wifi")
    }

    /// One isolated LTE exchange: promotion + inactivity + short DRX + long DRX at average powers.
    var isolatedLTEJ: Double {
        guard let lte = lteModel.radio.lte else { return .nan }
        let drx = { (cycle: Double) in
            (lte.drxOnS.value * lte.drxOnW.value + (cycle - lte.drxOnS.value) * lte.drxBaseW.value) / cycle
        }
        return lte.promotionS.value * lte.promotionW.value + lte.inactivityS.value * lte.connectedW.value
            + lte.shortDrxS.value * drx(lte.shortDrxCycleS.value) + lte.longDrxS.value * drx(lte.longDrxCycleS.value)
    }

    var wifiTailJ: Double { lteModel.radio.wifi.tailS.value * lteModel.radio.wifi.tailW.value }

    func radioLedgerJoules(_ priced: PricedTimeline, key: StringID? = nil) -> Double {
        guard let key else { return priced.costs.totals[Int(EnergyCategory.radio.rawValue)] }
        return priced.costs.energy(of: key, in: .radio)
    }

    @Test func ethernetAndLoopbackCostNoRadioEnergy() {
        var builder = TimelineBuilder()
        builder.net(1, .tx, bytes: 5000, host: "lan.example", link: .ethernet)
        builder.net(2, .rx, bytes: 5000, host: "localhost", link: .loopback)
        let priced = Pricer(model: lteModel).price(builder.build(end: 30))
        #expect(priced.eventEnergy == [0, 0])
        #expect(priced.costs.totals.allSatisfy { $0 == 0 })
        #expect(priced.radio.segmentCount == 0)
        #expect(Pricer(model: lteModel).radioSegments(of: priced.timeline).isEmpty)
        #expect(priced.radio.promotions == 0)
        #expect(priced.end == priced.timeline.end)
    }

    @Test func unspecifiedLinkFollowsTheModelsDefaultLink() throws {
        var builder = TimelineBuilder()
        builder.net(1, .tx, bytes: 0, host: "api.example")
        let timeline = builder.build(end: 30)

        let onLTE = Pricer(model: lteModel).price(timeline)
        #expect(lteModel.radio.defaultLink == .cellular)
        #expect(Pricer(model: lteModel).radioSegments(of: timeline).allSatisfy { $0.link == .cellular })
        #expect(onLTE.radio.promotions == 1)
        #expect(close(onLTE.eventEnergy[0], isolatedLTEJ))

        let onWiFi = Pricer(model: wifiModel).price(timeline)
        #expect(wifiModel.radio.defaultLink == .wifi)
        #expect(Pricer(model: wifiModel).radioSegments(of: timeline).allSatisfy { $0.link == .wifi })
        #expect(onWiFi.radio.promotions == 0)
        #expect(close(onWiFi.eventEnergy[0], wifiTailJ))
    }

    @Test func cellularLinkUsesTheModelsCellularTechnology() throws {
        var umtsModel = lteModel
        umtsModel.radio.cellular = .umts
        let umts = try #require(umtsModel.radio.umts)
        var builder = TimelineBuilder()
        builder.net(1, .tx, bytes: 100, host: "api.example", link: .cellular)
        let priced = Pricer(model: umtsModel).price(builder.build(end: 60))
        let expected = umts.idleToDchS.value * umts.idleToDchW.value + umts.dchTailS.value * umts.dchW.value
            + umts.fachTailS.value * umts.fachW.value
        #expect(close(priced.eventEnergy[0], expected))
        #expect(Pricer(model: umtsModel).radioSegments(of: priced.timeline).contains { $0.state == .fach })
        #expect(priced.radio.total(of: .cellular, in: .fach) != nil)
    }

    @Test func linksRunIndependently() throws {
        // A Wi-Fi packet in the middle of the LTE tail neither shortens nor extends it.
        var builder = TimelineBuilder()
        builder.net(1, .tx, bytes: 0, host: "cell.example", link: .cellular)
        builder.net(2, .tx, bytes: 0, host: "wifi.example", link: .wifi)
        let priced = Pricer(model: lteModel).price(builder.build(end: 30))
        #expect(close(priced.eventEnergy[0], isolatedLTEJ))
        #expect(close(priced.eventEnergy[1], wifiTailJ))
        // Replayed segments are grouped by link (Wi-Fi first), each group in time order.
        let segments = Pricer(model: lteModel).radioSegments(of: priced.timeline)
        let links = segments.map(\.link)
        #expect(links == links.sorted { $0.rawValue < $1.rawValue })
        for link in [LinkKind.wifi, .cellular] {
            let starts = segments.filter { $0.link == link }.map(\.start)
            #expect(starts == starts.sorted())
        }
    }

    @Test func ledgerEventEnergyAndSegmentsAgree() throws {
        var builder = TimelineBuilder()
        let hosts = ["a.example", "b.example", "c.example"]
        // Three bursts on LTE (two inside one tail, one after it) and a Wi-Fi burst.
        for (index, time) in [1.0, 1.05, 1.3, 4.0, 30.0].enumerated() {
            builder.net(time, index % 2 == 0 ? .tx : .rx, bytes: Int64(1000 * (index + 1)), host: hosts[index % 3], link: .cellular)
        }
        builder.net(2.0, .tx, bytes: 800, host: "a.example", link: .wifi)
        builder.net(2.1, .rx, bytes: 20_000, host: "a.example", link: .wifi)
        let priced = Pricer(model: lteModel).price(builder.build(end: 35))

        let segments = Pricer(model: lteModel).radioSegments(of: priced.timeline)
        // Pricing keeps the sums of the segments a replay of its radios gives, bit for bit.
        #expect(RadioActivity(segments: segments, promotions: priced.radio.promotions) == priced.radio)
        #expect(priced.radio.segmentCount == segments.count)
        let segmentJoules = segments.filter { $0.state != .idle }.reduce(0) { $0 + $1.joules }
        let eventJoules = priced.eventEnergy.reduce(0, +)
        let ledgerJoules = radioLedgerJoules(priced)
        #expect(close(eventJoules, segmentJoules))
        // The ledger stores Float entries: agreement to float precision.
        #expect(close(ledgerJoules, eventJoules, tolerance: eventJoules * 1e-6))
        #expect(priced.radio.promotions == 2)

        // Per host: the ledger entries keyed by a host hold the energy of that host's packets.
        for host in hosts {
            let id = try #require(priced.timeline.strings.lookup(host))
            let rows = (0..<priced.timeline.count).filter { priced.timeline.label[$0] == id }
            let hostJoules = rows.reduce(0) { $0 + priced.eventEnergy[$1] }
            #expect(hostJoules > 0)
            #expect(close(radioLedgerJoules(priced, key: id), hostJoules, tolerance: hostJoules * 1e-6))
        }
        // Idle energy is reported in segments but never enters the ledger.
        #expect(segments.contains { $0.state == .idle && $0.joules > 0 })
        #expect((priced.radio.total(of: .cellular, in: .idle)?.joules ?? 0) > 0)
    }

    @Test func tailPastTheEndOfTheRunExtendsThePricedEnd() {
        var builder = TimelineBuilder()
        builder.net(1, .tx, bytes: 0, host: "api.example", link: .cellular)
        let priced = Pricer(model: lteModel).price(builder.build(end: 2))
        guard let lte = lteModel.radio.lte else { return }
        let tailEnd = 1 + lte.promotionS.value + lte.inactivityS.value + lte.shortDrxS.value + lte.longDrxS.value
        #expect(priced.timeline.end == Clock.nanoseconds(2))
        #expect(priced.radio.attributedEnd == Clock.nanoseconds(tailEnd))
        #expect(priced.end == Clock.nanoseconds(tailEnd))
        #expect(close(priced.eventEnergy[0], isolatedLTEJ))
        // The chart's 1 s bins were laid for the 2 s run; the tail added bins to its end, and
        // its energy is spread over them (ledger entries of at most one second), none lost.
        let radio = Int(EnergyCategory.radio.rawValue)
        let grid = priced.costs.grid
        #expect(grid.width == Clock.nanoseconds(1) && !grid.isOpen)
        #expect(grid.binCount == Int(tailEnd.rounded(.up)))
        let radioBins = (0..<grid.binCount).map { priced.costs.bins[$0 * EnergyCategory.count + radio] }
        #expect(radioBins[0] == 0)
        // (An entry is binned by its start, so the last bin may hold none of the tail.)
        #expect(radioBins[1..<(grid.binCount - 1)].allSatisfy { $0 > 0 })
        #expect(close(radioBins.reduce(0, +), isolatedLTEJ, tolerance: 1e-6))
    }
}
