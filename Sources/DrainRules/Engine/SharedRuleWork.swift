import DrainModel
import DrainTrace

/// The pieces of work several rules of one run read (`SharedRuleWork`), as a rule declares
/// them (`Rule.sharedReads`).
public struct SharedReads: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The flow of each `net` event (`FlowOfRow`).
    public static let flowOfRow = SharedReads(rawValue: 1 << 0)
    /// The joules of each flow's `net` events (`FlowEnergy`), found through `flowOfRow`.
    public static let flowEnergy = SharedReads(rawValue: 1 << 1)

    public static let all: SharedReads = [.flowOfRow, .flowEnergy]
}

/// Work several rules of one run read, each piece made by the first rule that asks while any
/// other that asks for it meanwhile waits, and freed when the last rule that declared it
/// (`Rule.sharedReads`) is done: the rules run when memory peaks. Three network rules read the
/// joules of each flow's events (`FlowEnergy`, 16 bytes per flow), added up through the flow
/// of each event (`FlowOfRow`, 4 bytes per string), which NET-LATE-CLOSE and NET-UNCOMPRESSED
/// read too. Nine rules judge events by the app's lifecycle (`LifecycleTrack`, bounded by the
/// lifecycle events), which is found once and kept.
final class SharedRuleWork: Sendable {
    private let flowOfRows: SharedValue<FlowOfRow>
    private let flows: SharedValue<FlowEnergy>
    private let lifecycle = SharedValue<LifecycleTrack>(readers: 0)

    /// `readers`: what each rule of the run that may read shared work declares
    /// (`finishedReading(_:)`); a piece no rule declares is kept once made.
    init(readers: [SharedReads] = []) {
        func count(_ piece: SharedReads) -> Int { readers.count { $0.contains(piece) } }
        let flowEnergyReaders = count(.flowEnergy)
        flows = SharedValue(readers: flowEnergyReaders)
        // Adding up the joules of each flow reads the flow of each event once.
        flowOfRows = SharedValue(readers: count(.flowOfRow) + (flowEnergyReaders > 0 ? 1 : 0))
    }

    func flowOfRow(_ make: () -> FlowOfRow) -> FlowOfRow { flowOfRows.value(make) }

    /// The joules of each flow, made once by `make`, which is to read `flowOfRow(_:)`: that
    /// read is counted as done when they are made.
    func flowEnergy(_ make: () -> FlowEnergy) -> FlowEnergy {
        flows.value {
            defer { flowOfRows.finishedReading() }
            return make()
        }
    }

    /// The background stretches of the run, found by the first rule that asks and kept: a scan
    /// of every event's kind, small once made.
    func lifecycleTrack(_ make: () -> LifecycleTrack) -> LifecycleTrack { lifecycle.value(make) }

    /// Called by the engine when a rule that declared `pieces` is done with them: after the
    /// last reader of a piece it is dropped (one asked for later would be made again).
    func finishedReading(_ pieces: SharedReads) {
        if pieces.contains(.flowOfRow) { flowOfRows.finishedReading() }
        if pieces.contains(.flowEnergy) { flows.finishedReading() }
    }

    /// The pieces made (or handed over) and not yet dropped.
    var held: SharedReads {
        var held: SharedReads = []
        if flowOfRows.isHeld { held.insert(.flowOfRow) }
        if flows.isHeld { held.insert(.flowEnergy) }
        return held
    }
}

/// A value made once, by the first reader that asks, under its own lock, and dropped when the
/// last of the readers it was made for is done.
private final class SharedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var made: Value?
    private var readersLeft: Int

    /// `made`: the value, when it is known already.
    init(_ made: Value? = nil, readers: Int) {
        self.made = made
        readersLeft = readers
    }

    func value(_ make: () -> Value) -> Value {
        lock.withLock {
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }

    /// One reader is done; after the last the value is dropped.
    func finishedReading() {
        lock.withLock {
            readersLeft -= 1
            if readersLeft == 0 { made = nil }
        }
    }

    var isHeld: Bool { lock.withLock { made != nil } }
}
