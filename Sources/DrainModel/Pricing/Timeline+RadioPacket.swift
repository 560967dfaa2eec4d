import DrainTrace

extension Timeline {
    /// The `net` event at `row` as a radio takes it: a packet of its bytes and direction at
    /// `time` (its own time, or where a simulation moves it), and the link it went over; an
    /// unknown direction is taken as received, an unknown link as unspecified. O(1).
    @inline(__always)
    func radioPacket(row: Int, at time: Nanoseconds) -> (packet: RadioPacket, link: LinkKind) {
        let packet = RadioPacket(row: row, time: time, bytes: amount[row], direction: NetDirection(rawValue: code[row]) ?? .rx)
        return (packet, LinkKind(rawValue: code2[row]) ?? .unspecified)
    }
}
