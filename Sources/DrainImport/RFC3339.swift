import DrainTraceWriter

/// Reads RFC 3339 date-times (`2026-11-22T10:00:00.000Z`, `2026-11-22T11:00:00+01:00`).
enum RFC3339 {
    /// Nanoseconds since the Unix epoch of an RFC 3339 date-time, or a reason it is not one
    /// with the byte offset where it goes wrong.
    ///
    /// Accepts `T`, `t` or a space between date and time, any number of fraction digits (kept
    /// to the nanosecond, truncated beyond), and `Z`, `z` or `±HH:MM`. A leap second (`:60`)
    /// counts as the first second of the next minute, as POSIX time does. O(length).
    static func nanosecondsSinceEpoch(_ text: UnsafeRawBufferPointer) -> Result<Int64, Failure> {
        var reader = Reader(text: text)
        do throws(Failure) {
            let year = try reader.digits(4, "a four-digit year")
            try reader.literal(UInt8(ascii: "-"))
            let month = try reader.digits(2, "a two-digit month")
            try reader.literal(UInt8(ascii: "-"))
            let dayOffset = reader.offset
            let day = try reader.digits(2, "a two-digit day")
            guard (1...12).contains(month) else { throw Failure(offset: 5, message: "month \(month) is not 1 to 12") }
            guard (1...CivilDate.daysIn(month: month, year: year)).contains(day) else {
                throw Failure(offset: dayOffset, message: "day \(day) does not exist in month \(month) of \(year)")
            }
            guard let separator = reader.next(), separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
                || separator == UInt8(ascii: " ")
            else { throw Failure(offset: reader.offset - 1, message: "expected 'T' between the date and the time") }
            let hour = try reader.digits(2, "a two-digit hour")
            try reader.literal(UInt8(ascii: ":"))
            let minute = try reader.digits(2, "two-digit minutes")
            try reader.literal(UInt8(ascii: ":"))
            let second = try reader.digits(2, "two-digit seconds")
            guard hour < 24, minute < 60, second <= 60 else {
                throw Failure(offset: dayOffset + 3, message: "time \(hour):\(minute):\(second) is out of range")
            }
            var fraction: Int64 = 0
            if reader.peek() == UInt8(ascii: ".") {
                reader.offset += 1
                var scale: Int64 = 100_000_000
                guard let first = reader.peek(), ASCII.isDigit(first) else {
                    throw Failure(offset: reader.offset, message: "expected digits after '.'")
                }
                while let byte = reader.peek(), ASCII.isDigit(byte) {
                    fraction += Int64(byte - ASCII.zero) * scale
                    scale /= 10
                    reader.offset += 1
                }
            }
            let offsetSeconds = try reader.zone()
            guard reader.offset == text.count else {
                throw Failure(offset: reader.offset, message: "unexpected text after the time zone")
            }
            let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
            let seconds = ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second) - offsetSeconds
            // Four-digit years reach further than 64-bit nanoseconds do (±292 years of 1970).
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (nanoseconds, carried) = scaled.addingReportingOverflow(fraction)
            guard !overflow, !carried else {
                throw Failure(offset: 0, message: "\(year) is outside 1677 to 2262, the years a time in nanoseconds holds")
            }
            return .success(nanoseconds)
        } catch {
            return .failure(error)
        }
    }

    struct Failure: Error {
        /// Byte offset in the text.
        var offset: Int
        var message: String
    }

    private struct Reader {
        let text: UnsafeRawBufferPointer
        var offset = 0

        func peek() -> UInt8? { offset < text.count ? text[offset] : nil }

        mutating func next() -> UInt8? {
            defer { offset += 1 }
            return peek()
        }

        mutating func digits(_ count: Int, _ what: String) throws(Failure) -> Int {
            var value = 0
            for _ in 0..<count {
                guard let byte = peek(), ASCII.isDigit(byte) else { throw Failure(offset: offset, message: "expected \(what)") }
                value = value * 10 + Int(byte - ASCII.zero)
                offset += 1
            }
            return value
        }

        mutating func literal(_ byte: UInt8) throws(Failure) {
            guard peek() == byte else {
                throw Failure(offset: offset, message: "expected '\(Character(Unicode.Scalar(byte)))'")
            }
            offset += 1
        }

        /// `Z` or `±HH:MM`, as seconds east of UTC.
        mutating func zone() throws(Failure) -> Int64 {
            switch peek() {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                offset += 1
                return 0
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign: Int64 = peek() == UInt8(ascii: "-") ? -1 : 1
                offset += 1
                let hours = try digits(2, "a two-digit hour offset")
                try literal(UInt8(ascii: ":"))
                let minutes = try digits(2, "two-digit minutes in the offset")
                guard hours < 24, minutes < 60 else { throw Failure(offset: offset - 5, message: "time zone offset out of range") }
                return sign * Int64(hours * 3600 + minutes * 60)
            default:
                throw Failure(offset: offset, message: "expected a time zone: 'Z' or an offset such as +01:00")
            }
        }
    }
}
