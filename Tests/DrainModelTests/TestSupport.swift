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
