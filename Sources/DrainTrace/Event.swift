/// One event, as a value, for appending to and reading from a `Timeline`.
///
/// The timeline stores events column by column; this struct is only the row view. Which
/// payload fields an event kind uses is fixed (see `docs/trace-format.md`):
///
/// | kind | code | code2 | amount | amount2 | duration | value | value2 | label | label2 |
/// |---|---|---|---|---|---|---|---|---|---|
/// | lifecycle | state | | | | | | | | |
/// | wakeup | | | | | | | | reason | source |
/// | cpu | | | | | dur | | | name | |
/// | timer | repeats (0/1) | | | | interval | tolerance (s) | | name | |
/// | poll | | | | | interval | | | source | |
/// | net | dir | iface | bytes | | span (0, or first to last of coalesced packets) | | | host | conn |
/// | disk | op | | bytes | file_size (-1 unknown) | | | | path | |
/// | memory | | | footprint | | | | | | |
/// | memory_warning | | | | | | | | | |
/// | resource | action | | | | | | | kind | id |
/// | background_task | action | | | | | | | | id |
/// | gpu | | | | | dur | | | name | |
/// | frame | changed (0/1) | | | | | | | | |
/// | sensor | action | | | | | rate_hz | | kind | |
/// | location | action | | | | | accuracy_m | distance_filter_m | | |
/// | idle_timer | disabled (0/1) | | | | | | | | |
/// | mark | | | | | dur | | | name | |
/// | unknown | | | | | | | | type name | |
public struct Event: Sendable, Equatable {
    public var time: Nanoseconds
    public var kind: EventKind
    public var thread: StringID
    public var code: UInt8
    public var code2: UInt8
    public var amount: Int64
    public var amount2: Int64
    public var duration: Nanoseconds
    public var value: Double
    public var value2: Double
    public var label: StringID
    public var label2: StringID

    public init(
        time: Nanoseconds, kind: EventKind, thread: StringID = 0, code: UInt8 = 0, code2: UInt8 = 0,
        amount: Int64 = 0, amount2: Int64 = -1, duration: Nanoseconds = 0, value: Double = 0, value2: Double = 0,
        label: StringID = 0, label2: StringID = 0
    ) {
        self.time = time
        self.kind = kind
        self.thread = thread
        self.code = code
        self.code2 = code2
        self.amount = amount
        self.amount2 = amount2
        self.duration = duration
        self.value = value
        self.value2 = value2
        self.label = label
        self.label2 = label2
    }
}
