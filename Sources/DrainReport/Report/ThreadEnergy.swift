/// CPU and GPU time and their energy on one thread.
public struct ThreadEnergy: Codable, Sendable, Equatable {
    /// The thread's name or id as the input gave it; `(no thread)` for slices without one.
    public var thread: String
    /// Seconds of CPU and GPU slices.
    public var busyS: Double
    /// Their energy, joules.
    public var energyJ: Double
    /// How many slices.
    public var slices: Int

    public init(thread: String, busyS: Double, energyJ: Double, slices: Int) {
        self.thread = thread
        self.busyS = busyS
        self.energyJ = energyJ
        self.slices = slices
    }

    enum CodingKeys: String, CodingKey {
        case busyS = "busy_s"
        case energyJ = "energy_j"
        case slices, thread
    }
}
