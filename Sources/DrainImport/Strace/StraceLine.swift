/// One line of strace output, split into what strace puts before the traced event (the pid
/// with `-f`, the timestamp with `-t`/`-tt`/`-ttt`/`-r`) and the event itself.
///
/// Everything is found in place, without allocating; O(length of the prefix), plus O(n) to
/// check the end of the line for strace's markers.
struct StraceLine {
    /// What the line reports.
    enum Body {
        /// `name(arguments) = result`, or its start `name(arguments <unfinished ...>` when
        /// `unfinishedAt` is set (the index of the space before the marker). `nameEnd` is the
        /// index of the `(`.
        case call(nameEnd: Int, unfinishedAt: Int?)
        /// `<... name resumed>rest`: the end of a call another line started.
        case resumed(name: Range<Int>, rest: Int)
        /// `--- SIGCHLD {…} ---`: a signal delivered; `name` is its name when it is one.
        case signal(name: Range<Int>?)
        /// `+++ exited with 0 +++`, `+++ killed by SIGTERM +++`: the process or thread ended.
        case exit
        /// A call cut short by strace detaching: `name(arguments <detached ...>`.
        case detached
    }

    /// The pid (thread id) from `-f`: `1234 ` or `[pid  1234] `; 0 when the line has none.
    var pid: Int32 = 0
    var timestamp: StraceTimestamp?
    var body: Body = .exit
    /// Where the body starts.
    var bodyStart = 0

    /// Splits a line (trimmed of trailing whitespace) into its parts.
    ///
    /// - Throws: `LineError` when the line is not in strace's shape.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(LineError) -> StraceLine {
        let end = bytes.count
        var line = StraceLine()
        var index = skipSpaces(bytes, from: 0, to: end)
        if StraceSyntax.matches(bytes, at: index, end: end, "[pid") {
            index = skipSpaces(bytes, from: index + 4, to: end)
            guard let (pid, after) = pid(bytes, from: index, to: end), after < end, bytes[after] == ASCII.closeBracket else {
                throw LineError(at: index, "expected a pid and ']' after '[pid'")
            }
            line.pid = pid
            index = skipSpaces(bytes, from: after + 1, to: end)
        } else if let (pid, after) = pid(bytes, from: index, to: end), after < end, bytes[after] == ASCII.space,
            after - index <= StraceTimestamp.pidDigits
        {
            line.pid = pid
            index = skipSpaces(bytes, from: after, to: end)
        }
        if index < end, ASCII.isDigit(bytes[index]) {
            guard let (stamp, after) = StraceTimestamp.parse(bytes, from: index, to: end), after < end, bytes[after] == ASCII.space
            else { throw LineError(at: index, "expected a timestamp (seconds.microseconds or HH:MM:SS.microseconds)") }
            line.timestamp = stamp
            index = skipSpaces(bytes, from: after, to: end)
        }
        // What other options put before the call: `-i` `[00007f3a9c0e1f0b]`, `-n` `[  12]`,
        // `--secontext` `[unconfined_u:…]`. A call itself never starts with `[`.
        while index < end, bytes[index] == ASCII.openBracket {
            var close = index + 1
            while close < end, bytes[close] != ASCII.closeBracket { close += 1 }
            guard close < end else { throw LineError(at: index, "expected ']' after '['") }
            index = skipSpaces(bytes, from: close + 1, to: end)
        }
        line.bodyStart = index
        line.body = try body(bytes, from: index, to: end)
        return line
    }

    private static func body(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) throws(LineError) -> Body {
        if StraceSyntax.matches(bytes, at: start, end: end, "+++ ") {
            guard end - start >= 7, StraceSyntax.matches(bytes, at: end - 4, end: end, " +++") else {
                throw LineError(at: end, "expected ' +++' at the end of an exit line", cutOff: true)
            }
            return .exit
        }
        if StraceSyntax.matches(bytes, at: start, end: end, "--- ") {
            guard end - start >= 7, StraceSyntax.matches(bytes, at: end - 4, end: end, " ---") else {
                throw LineError(at: end, "expected ' ---' at the end of a signal line", cutOff: true)
            }
            var nameEnd = start + 4
            while nameEnd < end, bytes[nameEnd] != ASCII.space { nameEnd += 1 }
            let isSignal = StraceSyntax.matches(bytes, at: start + 4, end: nameEnd, "SIG")
            return .signal(name: isSignal ? start + 4..<nameEnd : nil)
        }
        if StraceSyntax.matches(bytes, at: start, end: end, "<... ") {
            var nameEnd = start + 5
            while nameEnd < end, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            guard nameEnd > start + 5, StraceSyntax.matches(bytes, at: nameEnd, end: end, " resumed>") else {
                throw LineError(at: nameEnd, "expected '<... name resumed>'")
            }
            return .resumed(name: start + 5..<nameEnd, rest: nameEnd + 9)
        }
        var nameEnd = start
        while nameEnd < end, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
        guard nameEnd > start, nameEnd < end, bytes[nameEnd] == StraceSyntax.openParenthesis else {
            let found = start < end ? ", found \(ASCII.describe(bytes[start]))" : ""
            throw LineError(at: nameEnd == start ? start : nameEnd, "expected a system call, a signal (---), an exit (+++) or a resumed call (<...)\(found)")
        }
        if let marker = markerStart(bytes, from: nameEnd, to: end, "<unfinished ...>") {
            return .call(nameEnd: nameEnd, unfinishedAt: marker)
        }
        if markerStart(bytes, from: nameEnd, to: end, "<detached ...>") != nil { return .detached }
        return .call(nameEnd: nameEnd, unfinishedAt: nil)
    }

    /// Where ` marker` (or `marker` right after the `(`) ends the line, if it does.
    private static func markerStart(_ bytes: UnsafeRawBufferPointer, from nameEnd: Int, to end: Int, _ marker: StaticString) -> Int? {
        let count = marker.utf8CodeUnitCount
        guard end - count > nameEnd, StraceSyntax.matches(bytes, at: end - count, end: end, marker) else { return nil }
        let start = end - count
        return bytes[start - 1] == ASCII.space ? start - 1 : start
    }

    /// Whether a byte may be part of a system call name (`clock_nanosleep`, `syscall_0x1c8`).
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "?")
    }

    private static func skipSpaces(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var index = start
        while index < end, bytes[index] == ASCII.space { index += 1 }
        return index
    }

    /// A pid at `start`, optionally followed by strace's `<comm>` (`--decode-pids=comm`), and
    /// the index after them.
    private static func pid(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (Int32, Int)? {
        var index = start
        var value: Int64 = 0
        while index < end, ASCII.isDigit(bytes[index]), index - start < 10 {
            value = value * 10 + Int64(bytes[index] - ASCII.zero)
            index += 1
        }
        guard index > start, value <= Int64(Int32.max) else { return nil }
        if let comm = StraceAnnotation.following(bytes, at: index, end: end) { index = comm.end }
        return (Int32(value), index)
    }
}
