import DrainImport
import DrainModel
import DrainTestSupport
import DrainTrace
import Testing

/// Coalescing packets into spanning `net` events leaves radio energy unchanged: a span keeps
/// the radio active from its first to its last packet, as the packets did.
@Suite struct CapturePricingTests {
    /// A download of 1400-byte segments every 5 ms for a second with the device's ACKs every
    /// 8 ms, a small exchange at 3 s, and a second download every 8 ms for half a second at 20 s.
    func session() -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds)
        let start: Int64 = 1_700_000_000_000_000_000
        var packets: [(Int64, [UInt8])] = []
        var serverSeq: UInt32 = 1
        func data(_ bytes: Int) -> [UInt8] {
            defer { serverSeq &+= UInt32(bytes) }
            return IPPacket.tcp(from: serverV4, 443, to: deviceV4, 50000, seq: serverSeq, flags: IPPacket.ack, [UInt8](repeating: 1, count: bytes))
        }
        let ack = IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1, flags: IPPacket.ack)
        for index in 0...200 { packets.append((Int64(index) * 5_000_000, data(1400))) }
        for index in 0...125 { packets.append((Int64(index) * 8_000_000 + 1_000_000, ack)) }
        packets.append((3_000_000_000, IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1, flags: IPPacket.psh | IPPacket.ack, [UInt8](repeating: 2, count: 300))))
        packets.append((3_040_000_000, data(500)))
        for index in 0...62 { packets.append((20_000_000_000 + Int64(index) * 8_000_000, data(1400))) }
        packets.sort { $0.0 < $1.0 }
        for (time, ip) in packets { writer.add(nanoseconds: start + time, Frame.ethernet(ip)) }
        return writer.bytes
    }

    func radioJoules(_ priced: PricedTimeline) -> Double {
        priced.eventEnergy.reduce(0, +)
    }

    @Test(arguments: [("iphone-lte", LinkKind.cellular), ("iphone-wifi", .wifi), ("android-pixel-lte", .cellular)])
    func coalescedEventsCostWhatTheirPacketsCost(model name: String, link: LinkKind) throws {
        let model = try ModelCatalog.load(builtin: name)
        let capture = session()
        let perPacket = try importCapture(capture, options: CaptureOptions(link: link, coalescing: 0))
        let coalesced = try importCapture(capture, options: CaptureOptions(link: link))
        #expect(perPacket.timeline.count == 201 + 126 + 2 + 63)
        // The downloads and the ACKs collapse into a few spanning events.
        #expect(coalesced.timeline.count == 5)
        let exact = Pricer(model: model).price(perPacket.timeline)
        let spans = Pricer(model: model).price(coalesced.timeline)
        #expect(abs(radioJoules(spans) - radioJoules(exact)) <= 1e-9 * radioJoules(exact))
        #expect(spans.radio.promotions == exact.radio.promotions)
        let active = Pricer(model: model).radioSegments(of: perPacket.timeline).filter { $0.state != .idle }
        let spanned = Pricer(model: model).radioSegments(of: coalesced.timeline).filter { $0.state != .idle }
        #expect(spanned == spans.radio.firstBusySegments(limit: RadioActivity.keptSegmentsPerRadio))
        #expect(spanned.map(\.state) == active.map(\.state))
        #expect(spanned.map(\.start) == active.map(\.start))
        #expect(spanned.map(\.end) == active.map(\.end))
        for (lhs, rhs) in zip(spanned, active) { #expect(abs(lhs.joules - rhs.joules) <= 1e-9) }
    }

    /// One event received over one second at time 1 s, priced by hand.
    func oneSecondSpan(bytes: Int64, link: LinkKind) -> Timeline {
        var timeline = Timeline()
        timeline.append(
            Event(time: 1_000_000_000, kind: .net, code: NetDirection.rx.rawValue, code2: link.rawValue, amount: bytes, duration: 1_000_000_000))
        timeline.end = 2_000_000_000
        return timeline
    }

    @Test func aWiFiSpanIsActiveForItsWholeLengthThenTails() throws {
        let model = try ModelCatalog.load(builtin: "iphone-wifi")
        let wifi = model.radio.wifi
        let priced = Pricer(model: model).price(oneSecondSpan(bytes: 100_000, link: .wifi))
        // Active 1 s, tail tail_s at tail_w, α·Mbit for 0.8 Mbit (α in mW per Mbps → mJ).
        let expected = 1.0 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value
            + (wifi.alphaDownMwPerMbps?.value ?? 0) * 0.8 / 1000
        #expect(abs(radioJoules(priced) - expected) <= 1e-9)
    }

    @Test func anLTESpanPromotesStaysConnectedToItsEndThenRunsTheTimers() throws {
        let model = try ModelCatalog.load(builtin: "iphone-lte")
        let lte = try #require(model.radio.lte)
        let priced = Pricer(model: model).price(oneSecondSpan(bytes: 100_000, link: .cellular))
        func drxPower(cycle: Double) -> Double {
            let on = min(lte.drxOnS.value, cycle)
            return (on * lte.drxOnW.value + (cycle - on) * lte.drxBaseW.value) / cycle
        }
        let promotion = lte.promotionS.value
        #expect(promotion < 1)
        // Promotion, then connected from its end to the span's end (1 s after its start), the
        // transfer (0.8 Mbit at α_down), the inactivity timer, short and long DRX.
        let expected = promotion * lte.promotionW.value
            + (1.0 - promotion) * lte.connectedW.value
            + lte.alphaDownMwPerMbps.value * 0.8 / 1000
            + lte.inactivityS.value * lte.connectedW.value
            + lte.shortDrxS.value * drxPower(cycle: lte.shortDrxCycleS.value)
            + lte.longDrxS.value * drxPower(cycle: lte.longDrxCycleS.value)
        #expect(abs(radioJoules(priced) - expected) <= 1e-9)
        #expect(priced.radio.promotions == 1)
    }
}
