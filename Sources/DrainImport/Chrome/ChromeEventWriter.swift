import DrainTrace
import DrainTraceWriter

/// Writes Chrome Trace Event JSON (the object form, one event per line) for the Perfetto UI
/// and chrome://tracing: complete slices, instants, counters and the names of the process
/// and its threads, all in process `pid`. The reader of the same format is
/// `ChromeTraceImporter`; docs/chrome-trace.md describes both.
///
/// Times are nanoseconds, written as microseconds exactly (three decimals at most);
/// strings are escaped as JSON and also U+2028 and U+2029, so the text is safe inside a
/// script. Appending an event is O(its text).
///
/// ```swift
/// var chrome = ChromeEventWriter(otherData: [("generator", "drain 1.0")])
/// chrome.slice(name: "parse", category: "drain.cpu", start: 0, duration: 1_500, tid: 1) { $0.number("energy_j", 0.2) }
/// chrome.threadName("main", tid: 1)
/// let json = chrome.finish()
/// ```
public struct ChromeEventWriter {
    /// The one process of the trace; the main thread's `tid` equals it, as importers expect.
    public static let pid = 1

    /// Where an instant is drawn.
    public enum Scope: Sendable {
        /// On its thread's track (`"s":"t"`).
        case thread
        /// Across the whole process (`"s":"p"`).
        case process
    }

    private var output = JSONLine(capacity: 64 * 1024)

    /// Starts the trace: `{"displayTimeUnit":"ms","otherData":{…},"traceEvents":[`.
    /// `otherData` is written in the order given (generator, model, …).
    public init(otherData: [(key: String, value: String)]) {
        output.raw(#"{"displayTimeUnit":"ms","otherData":{"#)
        for (index, member) in otherData.enumerated() {
            if index > 0 { output.byte(UInt8(ascii: ",")) }
            output.string(member.key, style: .scriptSafe)
            output.byte(UInt8(ascii: ":"))
            output.string(member.value, style: .scriptSafe)
        }
        output.raw("},\"traceEvents\":[\n")
    }

    /// Makes room for about `bytes` more bytes of text.
    public mutating func reserveCapacity(_ bytes: Int) {
        output.reserveCapacity(output.count + bytes)
    }

    /// A complete slice (`X`) from `start` lasting `duration`, with `args` when `arguments`
    /// is given (an empty object if it adds nothing).
    public mutating func slice(
        name: String, category: String, start: Nanoseconds, duration: Nanoseconds, tid: Int,
        arguments: ((inout Arguments) -> Void)? = nil
    ) {
        begin(phase: "X", name: name, category: category, time: start, tid: tid)
        output.raw(#","dur":"#)
        output.decimal(duration, fractionDigits: 3)
        end(arguments)
    }

    /// An instant (`i`) at `time`, with `args` when `arguments` is given.
    public mutating func instant(
        name: String, category: String, time: Nanoseconds, tid: Int, scope: Scope,
        arguments: ((inout Arguments) -> Void)? = nil
    ) {
        begin(phase: "i", name: name, category: category, time: time, tid: tid)
        output.raw(scope == .thread ? #","s":"t""# : #","s":"p""#)
        end(arguments)
    }

    /// A counter sample (`C`): each member `arguments` adds is one series of the track `name`.
    public mutating func counter(
        name: String, category: String, time: Nanoseconds, tid: Int = ChromeEventWriter.pid,
        arguments: (inout Arguments) -> Void
    ) {
        begin(phase: "C", name: name, category: category, time: time, tid: tid)
        end(arguments: arguments)
    }

    /// Names the process (a `process_name` metadata event).
    public mutating func processName(_ name: String) {
        metadata("process_name", tid: Self.pid, name: name)
    }

    /// Names the track of thread `tid` (a `thread_name` metadata event).
    public mutating func threadName(_ name: String, tid: Int) {
        metadata("thread_name", tid: tid, name: name)
    }

    /// Ends the trace and returns its text.
    public consuming func finish() -> String {
        var bytes = output.bytes
        // The last event ends without a comma.
        if bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: ","), bytes[bytes.count - 1] == UInt8(ascii: "\n") {
            bytes.removeLast(2)
        }
        bytes.append(contentsOf: "\n]}\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `{"ph":…,"name":…,"cat":…,"ts":…,"pid":1,"tid":…`
    private mutating func begin(phase: StaticString, name: String, category: String, time: Nanoseconds, tid: Int) {
        output.raw(#"{"ph":""#)
        output.raw(phase)
        output.raw(#"","name":"#)
        output.string(name, style: .scriptSafe)
        output.raw(#","cat":"#)
        output.string(category, style: .scriptSafe)
        output.raw(#","ts":"#)
        output.decimal(time, fractionDigits: 3)
        output.raw(#","pid":"#)
        output.integer(Int64(Self.pid))
        output.raw(#","tid":"#)
        output.integer(Int64(tid))
    }

    /// Closes the event, with `args` when `arguments` is given.
    private mutating func end(_ arguments: ((inout Arguments) -> Void)?) {
        if let arguments { end(arguments: arguments) } else { output.raw("},\n") }
    }

    private mutating func end(arguments: (inout Arguments) -> Void) {
        var members = Arguments()
        arguments(&members)
        output.raw(#","args":{"#)
        members.text.bytes.withUnsafeBytes { output.raw($0) }
        output.raw("}},\n")
    }

    private mutating func metadata(_ kind: StaticString, tid: Int, name: String) {
        output.raw(#"{"ph":"M","name":""#)
        output.raw(kind)
        output.raw(#"","pid":"#)
        output.integer(Int64(Self.pid))
        output.raw(#","tid":"#)
        output.integer(Int64(tid))
        output.raw(#","args":{"name":"#)
        output.string(name, style: .scriptSafe)
        output.raw("}},\n")
    }

    /// The members of an event's `args` object, in the order added.
    public struct Arguments {
        fileprivate var text = JSONLine()

        private mutating func key(_ key: String) {
            if text.count > 0 { text.byte(UInt8(ascii: ",")) }
            text.string(key, style: .scriptSafe)
            text.byte(UInt8(ascii: ":"))
        }

        public mutating func string(_ key: String, _ value: String) {
            self.key(key)
            text.string(value, style: .scriptSafe)
        }

        public mutating func integer(_ key: String, _ value: Int64) {
            self.key(key)
            text.integer(value)
        }

        /// A number in the shortest form that reads back as the same `Double`; 0 for values
        /// JSON cannot hold (NaN, infinities).
        public mutating func number(_ key: String, _ value: Double) {
            self.key(key)
            if value.isFinite { text.real(value) } else { text.byte(UInt8(ascii: "0")) }
        }

        /// A duration in nanoseconds as decimal seconds, exactly, as Drain traces write them.
        public mutating func seconds(_ key: String, _ nanoseconds: Nanoseconds) {
            self.key(key)
            text.decimal(nanoseconds, fractionDigits: 9)
        }

        public mutating func boolean(_ key: String, _ value: Bool) {
            self.key(key)
            text.boolean(value)
        }
    }
}
