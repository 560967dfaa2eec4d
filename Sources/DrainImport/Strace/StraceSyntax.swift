/// The punctuation of strace's argument syntax: quoted strings with C escapes, `<…>`
/// descriptor annotations (`-y`, `-yy`), and nested `[…]`, `{…}`, `(…)`.
///
/// Every function scans bytes in place and allocates nothing; each is O(bytes scanned).
enum StraceSyntax {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let openParenthesis = UInt8(ascii: "(")
    static let closeParenthesis = UInt8(ascii: ")")

    /// The index after the quoted string whose `"` is at `start`; `end` if it does not close.
    @inline(__always)
    static func stringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var index = start + 1
        while index < end {
            let byte = bytes[index]
            if byte == ASCII.backslash {
                index += 2
                continue
            }
            if byte == ASCII.quote { return index + 1 }
            index += 1
        }
        return end
    }

    /// The index after the annotation whose `<` is at `start`. Nested annotations
    /// (`</dev/null<char 1:3>>`) close with it; a `>` inside `[…]` (the `->` of a socket) or
    /// inside a quoted string does not. `end` if it does not close.
    static func annotationEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var depth = 0
        var brackets = 0
        var index = start
        while index < end {
            switch bytes[index] {
            case ASCII.quote:
                index = stringEnd(bytes, from: index, to: end)
                continue
            case ASCII.openBracket:
                brackets += 1
            case ASCII.closeBracket:
                if brackets > 0 { brackets -= 1 }
            case lessThan where brackets == 0:
                depth += 1
            case greaterThan where brackets == 0:
                depth -= 1
                if depth == 0 { return index + 1 }
            default:
                break
            }
            index += 1
        }
        return end
    }

    /// The index of the `)` that closes a call's arguments, which start at `start` (after its
    /// `(`); nil if the text ends first.
    static func argumentsEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        var depth = 0
        var index = start
        while index < end {
            switch bytes[index] {
            case ASCII.quote:
                index = stringEnd(bytes, from: index, to: end)
                continue
            case lessThan:
                index = annotationEnd(bytes, from: index, to: end)
                continue
            case openParenthesis, ASCII.openBracket, ASCII.openBrace:
                depth += 1
            case ASCII.closeBracket, ASCII.closeBrace:
                if depth > 0 { depth -= 1 }
            case closeParenthesis:
                if depth == 0 { return index }
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// Splits `start..<end` at its top-level commas into `ranges` (emptied first, its
    /// capacity kept), each trimmed of spaces. O(n), no allocation once `ranges` has grown.
    static func splitArguments(
        _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into ranges: inout [Range<Int>]
    ) {
        ranges.removeAll(keepingCapacity: true)
        var depth = 0
        var argumentStart = start
        var index = start
        while index < end {
            switch bytes[index] {
            case ASCII.quote:
                index = stringEnd(bytes, from: index, to: end)
                continue
            case lessThan:
                index = annotationEnd(bytes, from: index, to: end)
                continue
            case openParenthesis, ASCII.openBracket, ASCII.openBrace:
                depth += 1
            case closeParenthesis, ASCII.closeBracket, ASCII.closeBrace:
                if depth > 0 { depth -= 1 }
            case ASCII.comma where depth == 0:
                ranges.append(trimmed(bytes, argumentStart..<index))
                argumentStart = index + 1
            default:
                break
            }
            index += 1
        }
        let last = trimmed(bytes, argumentStart..<end)
        if !last.isEmpty || !ranges.isEmpty { ranges.append(last) }
    }

    /// `range` without leading and trailing spaces and tabs.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == ASCII.space || bytes[lower] == ASCII.tab { lower += 1 }
        while upper > lower, bytes[upper - 1] == ASCII.space || bytes[upper - 1] == ASCII.tab { upper -= 1 }
        return lower..<upper
    }

    /// Whether the bytes at `start` are `text` (ASCII).
    @inline(__always)
    static func matches(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard start >= 0, start + count <= end else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where bytes[start + offset] != pointer[offset] { return false }
        return true
    }

    /// Whether `text` occurs anywhere in `range`. O(n·m) for the short needles used here.
    static func contains(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ text: StaticString) -> Bool {
        firstIndex(of: text, in: bytes, range) != nil
    }

    /// Where `text` first occurs in `range`, if it does.
    static func firstIndex(of text: StaticString, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        let count = text.utf8CodeUnitCount
        guard count > 0, range.count >= count else { return nil }
        let first = text.utf8Start[0]
        var index = range.lowerBound
        while index + count <= range.upperBound {
            if bytes[index] == first, matches(bytes, at: index, end: range.upperBound, text) { return index }
            index += 1
        }
        return nil
    }

    /// A whole decimal number, optionally negative, spanning all of `range`; nil if it is
    /// anything else or does not fit.
    static func integer(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64? {
        guard let (value, end) = leadingInteger(bytes, from: range.lowerBound, to: range.upperBound), end == range.upperBound
        else { return nil }
        return value
    }

    /// The decimal number (optionally negative) at `start` and the index after it.
    static func leadingInteger(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (Int64, Int)? {
        var index = start
        let negative = index < end && bytes[index] == ASCII.minus
        if negative { index += 1 }
        let digitsStart = index
        var value: Int64 = 0
        while index < end, ASCII.isDigit(bytes[index]) {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(bytes[index] &- ASCII.zero))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            index += 1
        }
        guard index > digitsStart else { return nil }
        return (negative ? -value : value, index)
    }
}
