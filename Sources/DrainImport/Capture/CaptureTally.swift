import DrainTrace

/// Counts what a capture import skipped or noticed, packet by packet, without building text;
/// `record(into:)` turns the counts into diagnostics once, at the end.
struct CaptureTally {
    /// The first occurrence of something, and how often it happened.
    struct Count<Detail> {
        var count = 0
        var bytes: Int64 = 0
        var firstPacket = 0
        var firstDetail: Detail?

        mutating func add(packet: Int, bytes frameBytes: Int64 = 0, _ detail: @autoclosure () -> Detail) {
            if count == 0 {
                firstPacket = packet
                firstDetail = detail()
            }
            count += 1
            bytes += frameBytes
        }
    }

    var malformed = Count<MalformedFrame>()
    var notIP = Count<NonIPFrame>()
    var cut = Count<Void>()
    var fragments = Count<Void>()
    var unsupportedLinkType = Count<UInt32>()
    var unreadablePayload = Count<StaticString>()
    var outOfOrder = Count<Void>()
    /// The largest step back in time from one packet to the next.
    var largestStepBack: Nanoseconds = 0

    /// The packets whose time stamp was earlier than the packet before them.
    var backwardJumps: BackwardJumps { BackwardJumps(count: outOfOrder.count, largest: largestStepBack) }

    /// Adds the diagnostics for the counts that are not zero.
    func record(into diagnostics: inout ImportDiagnostics) {
        if malformed.count > 0, let detail = malformed.firstDetail {
            diagnostics.record(
                .warning, code: "malformed-packet",
                message: "\(malformed.count) packet(s) (\(malformed.bytes) bytes) were malformed and are not on the timeline; "
                    + "the first, packet \(malformed.firstPacket): \(detail.description)",
                location: "packet \(malformed.firstPacket)", count: malformed.count)
        }
        if notIP.count > 0, let detail = notIP.firstDetail {
            diagnostics.record(
                .info, code: "non-ip",
                message: "\(notIP.count) frame(s) (\(notIP.bytes) bytes) carried no IPv4 or IPv6 and are not on the timeline; "
                    + "the first, packet \(notIP.firstPacket), was \(detail.description)",
                location: "packet \(notIP.firstPacket)", count: notIP.count)
        }
        if cut.count > 0 {
            diagnostics.record(
                .info, code: "cut-by-snaplen",
                message: "the capture's snapshot length cut \(cut.count) packet(s) inside their IP or transport headers; "
                    + "those with whole IP headers count for their addresses without ports, the others (\(cut.bytes) bytes) are not on the timeline",
                location: "packet \(cut.firstPacket)", count: cut.count)
        }
        if fragments.count > 0 {
            diagnostics.record(
                .info, code: "ip-fragment",
                message: "\(fragments.count) packet(s) were IP fragments; fragments after the first carry no ports, "
                    + "so their bytes count for a flow of their addresses and protocol without ports",
                location: "packet \(fragments.firstPacket)", count: fragments.count)
        }
        if unsupportedLinkType.count > 0, let type = unsupportedLinkType.firstDetail {
            diagnostics.record(
                .warning, code: "unsupported-link-type",
                message: "\(unsupportedLinkType.count) packet(s) (\(unsupportedLinkType.bytes) bytes) had a per-packet "
                    + "\(LinkLayer.describe(dataLinkType: Int32(truncatingIfNeeded: type))), which is not supported, and are not on the timeline",
                location: "packet \(unsupportedLinkType.firstPacket)", count: unsupportedLinkType.count)
        }
        if unreadablePayload.count > 0, let what = unreadablePayload.firstDetail {
            diagnostics.record(
                .info, code: "unreadable-payload",
                message: "\(unreadablePayload.count) DNS response(s) or TLS ClientHello(s) could not be read, so they name no endpoint "
                    + "(their packets still count); the first, packet \(unreadablePayload.firstPacket), was a \(what)",
                location: "packet \(unreadablePayload.firstPacket)", count: unreadablePayload.count)
        }
        if outOfOrder.count > 0 {
            diagnostics.record(
                .info, code: "out-of-order-packets",
                message: "\(outOfOrder.count) packet(s) had an earlier timestamp than the packet before them (a merged capture?), "
                    + "the largest step back \(TimeGaps.describe(largestStepBack)); they were placed by their timestamps",
                location: "packet \(outOfOrder.firstPacket)", count: outOfOrder.count)
        }
    }
}
