import DrainTrace

/// One finished system call: `name(arguments) = result [ERRNO (text)] [detail] [<seconds>]`
/// (the detail, such as `(Timeout)`, is not needed: the result says as much),
/// read in place from a line, or from an unfinished line joined with its resumption.
///
/// Ranges index `text`, which is valid only while that line is being read.
struct StraceCall {
    var syscall: StraceSyscall
    var pid: Int32
    var text: UnsafeRawBufferPointer
    /// Between the parentheses.
    var arguments: Range<Int>
    /// The return value; nil for `?` (unknown, e.g. `exit`) and for what is not a number.
    var result: Int64?
    /// The `-yy` annotation of a returned descriptor (`= 3</etc/hosts>`), without `<` and `>`.
    var resultAnnotation: Range<Int>?
    /// The error name after a failed call's `-1` (`ENOENT`).
    var errorName: Range<Int>?
    /// When the call started and when it returned, on the timeline's clock.
    var entry: Nanoseconds
    var returned: Nanoseconds
    /// The line that holds the call's result.
    var line: Int

    /// Whether the call returned a value ≥ 0 (not an error, not unknown).
    var succeeded: Bool {
        guard let result else { return false }
        return result >= 0 && errorName == nil
    }

    /// Whether the call failed with the error named `name`.
    func failed(with name: StaticString) -> Bool {
        guard let errorName else { return false }
        return errorName.count == name.utf8CodeUnitCount
            && StraceSyntax.matches(text, at: errorName.lowerBound, end: errorName.upperBound, name)
    }

    /// The positions of a call's parts in `text`, whose name ends at `nameEnd` (at its `(`).
    struct Layout {
        var arguments: Range<Int>
        var result: Int64?
        var resultAnnotation: Range<Int>?
        var errorName: Range<Int>?
        /// The `-T` time spent in the call, `<0.000123>` at the end.
        var duration: Nanoseconds?
    }

    /// Finds the parts of `text` (trimmed of trailing spaces). O(n).
    ///
    /// - Throws: `LineError` when the arguments do not close or no `= result` follows them.
    static func layout(_ text: UnsafeRawBufferPointer, nameEnd: Int) throws(LineError) -> Layout {
        let end = text.count
        let argumentsStart = nameEnd + 1
        guard let close = StraceSyntax.argumentsEnd(text, from: argumentsStart, to: end) else {
            throw LineError(at: end, "the arguments of the call do not close with ')'", cutOff: true)
        }
        var index = close + 1
        while index < end, text[index] == ASCII.space || text[index] == ASCII.tab { index += 1 }
        guard index < end, text[index] == UInt8(ascii: "=") else {
            throw LineError(at: index, index < end ? "expected '= result' after the arguments, found \(ASCII.describe(text[index]))" : "expected '= result' after the arguments", cutOff: index >= end)
        }
        index += 1
        while index < end, text[index] == ASCII.space { index += 1 }

        var tail = end
        var duration: Nanoseconds?
        if tail > index, text[tail - 1] == StraceSyntax.greaterThan {
            var open = tail - 1
            while open > index, text[open] != StraceSyntax.lessThan { open -= 1 }
            if open > index, let seconds = self.seconds(text, open + 1..<tail - 1) {
                duration = seconds
                tail = StraceSyntax.trimmed(text, index..<open).upperBound
            }
        }

        guard index < tail else { throw LineError(at: index, "expected a result after '='", cutOff: true) }
        var layout = Layout(arguments: StraceSyntax.trimmed(text, argumentsStart..<close), duration: duration)
        if text[index] == UInt8(ascii: "?") {
            index += 1
        } else if StraceSyntax.matches(text, at: index, end: tail, "0x") {
            index += 2
            var value: UInt64 = 0
            let digitsStart = index
            while index < tail, let digit = ASCII.hexValue(text[index]) {
                value = value &<< 4 | UInt64(digit)
                index += 1
            }
            if index - digitsStart <= 16 { layout.result = Int64(bitPattern: value) }
        } else if let (value, after) = StraceSyntax.leadingInteger(text, from: index, to: tail) {
            layout.result = value
            index = after
        } else {
            throw LineError(at: index, "expected a result after '=', found \(ASCII.describe(text[index]))")
        }
        if let annotation = StraceAnnotation.following(text, at: index, end: tail) {
            layout.resultAnnotation = annotation.content
            index = annotation.end
        }
        while index < tail, text[index] == ASCII.space { index += 1 }
        if let result = layout.result, result < 0 {
            let nameStart = index
            while index < tail, isErrorNameByte(text[index]) { index += 1 }
            if index > nameStart { layout.errorName = nameStart..<index }
        }
        return layout
    }

    @inline(__always)
    private static func isErrorNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "_")
    }

    /// `seconds.fraction` (up to nine fraction digits) in `range` as nanoseconds; nil for
    /// anything else.
    static func seconds(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Nanoseconds? {
        guard let (whole, dot) = StraceSyntax.leadingInteger(bytes, from: range.lowerBound, to: range.upperBound), whole >= 0,
            whole < Int64.max / Clock.nanosecondsPerSecond, dot < range.upperBound, bytes[dot] == ASCII.dot
        else { return nil }
        var fraction: Int64 = 0
        var digits = 0
        var index = dot + 1
        while index < range.upperBound, ASCII.isDigit(bytes[index]), digits < 9 {
            fraction = fraction * 10 + Int64(bytes[index] - ASCII.zero)
            digits += 1
            index += 1
        }
        guard digits > 0, index == range.upperBound else { return nil }
        for _ in digits..<9 { fraction *= 10 }
        return whole * Clock.nanosecondsPerSecond + fraction
    }
}
