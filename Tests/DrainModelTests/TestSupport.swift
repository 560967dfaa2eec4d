import DrainTrace
@testable import DrainModel

/// A built-in model, loaded the way the CLI loads it.
func builtinModel(_ name: String) throws -> DeviceModel {
    try ModelCatalog.load(builtin: name)
}

/// One packet for a simulation: time in seconds, bytes, direction.
struct TestPacket {
    var seconds: Double
    var bytes: Int64 = 0
    var direction: NetDirection = .tx
}

/// Feeds `packets` (row = index) to `machine`, finishes it at `end` seconds and returns all it
/// reported.
func simulate<Machine: RadioStateMachine>(
    _ machine: inout Machine, _ packets: [TestPacket], end: Double
) -> RadioRecorder {
    var recorder = RadioRecorder()
    for (row, packet) in packets.enumerated() {
        machine.packet(
            RadioPacket(row: row, time: Clock.nanoseconds(packet.seconds), bytes: packet.bytes, direction: packet.direction),
            into: &recorder)
    }
    machine.finish(at: Clock.nanoseconds(end), into: &recorder)
    return recorder
}

/// A run of `events` received `net` events, a third on Wi-Fi and the rest cellular, each up to
/// `maxGap` seconds after the one before, of up to `maxBytes` bytes spanning up to `maxSpan`
/// seconds; the same `seed` gives the same run.
func randomNetRun(seed: UInt64, events: Int, maxGap: Double, maxBytes: UInt64, maxSpan: Double) -> Timeline {
    var timeline = Timeline()
    var random = SplitMix64(seed: seed)
    var time: Nanoseconds = 0
    for _ in 0..<events {
        time += Nanoseconds(random.next() % UInt64(Clock.nanoseconds(maxGap)))
        let link: LinkKind = random.next() % 3 == 0 ? .wifi : .cellular
        timeline.append(
            Event(
                time: time, kind: .net, code: NetDirection.rx.rawValue, code2: link.rawValue, amount: Int64(random.next() % maxBytes),
                duration: Nanoseconds(random.next() % UInt64(Clock.nanoseconds(maxSpan)))))
    }
    return timeline
}

/// Whether two energies agree to within `tolerance` joules (default: a nanojoule, far below
/// any figure of the models, above the rounding of nanosecond clocks).
func close(_ actual: Double, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    abs(actual - expected) <= tolerance
}

extension RadioRecorder {
    /// Joules of the segments in `state`.
    func joules(in state: RadioState) -> Double {
        segments.filter { $0.state == state }.reduce(0) { $0 + $1.joules }
    }

    /// The sequence of states, for checking the shape of a run.
    var states: [RadioState] { segments.map(\.state) }
}
