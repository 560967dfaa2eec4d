/// A block of `net` rows held column by column, one array per column, as a capture importer
/// builds them: `Timeline.appendNetRows(_:input:)` takes the arrays over rather than copying
/// the rows in one at a time.
public struct NetRowColumns: Sendable {
    public internal(set) var time: [Nanoseconds]
    public internal(set) var direction: [NetDirection]
    public internal(set) var link: [LinkKind]
    public internal(set) var bytes: [Int64]
    public internal(set) var duration: [Nanoseconds]
    /// The `label` column: the remote endpoint's host.
    public internal(set) var host: [StringID]
    /// The `label2` column: the connection.
    public internal(set) var connection: [StringID]

    /// - Precondition: every column has as many rows as `time`.
    public init(
        time: [Nanoseconds], direction: [NetDirection], link: [LinkKind], bytes: [Int64], duration: [Nanoseconds],
        host: [StringID], connection: [StringID]
    ) {
        let count = time.count
        precondition(
            [direction.count, link.count, bytes.count, duration.count, host.count, connection.count].allSatisfy { $0 == count },
            "the columns of a block of net rows differ in length")
        (self.time, self.direction, self.link, self.bytes) = (time, direction, link, bytes)
        (self.duration, self.host, self.connection) = (duration, host, connection)
    }

    /// The number of rows.
    public var count: Int { time.count }
}
