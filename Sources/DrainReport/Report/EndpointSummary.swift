/// Network traffic and radio energy of one endpoint.
public struct EndpointSummary: Codable, Sendable, Equatable {
    public var endpoint: String
    public var bytesUp: Int64
    public var bytesDown: Int64
    public var bursts: Int
    public var connections: Int
    public var energyJ: Double
    /// Whether the endpoint is a multicast, broadcast or link-local address, whose traffic
    /// stays on the local link and is never priced on a cellular radio.
    public var local: Bool

    public init(
        endpoint: String, bytesUp: Int64, bytesDown: Int64, bursts: Int, connections: Int, energyJ: Double, local: Bool = false
    ) {
        self.endpoint = endpoint
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
        self.bursts = bursts
        self.connections = connections
        self.energyJ = energyJ
        self.local = local
    }

    enum CodingKeys: String, CodingKey {
        case bursts
        case bytesDown = "bytes_down"
        case bytesUp = "bytes_up"
        case connections, endpoint
        case energyJ = "energy_j"
        case local
    }
}
