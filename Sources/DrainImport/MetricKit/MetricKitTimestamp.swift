import DrainTraceWriter

/// Reads MetricKit time stamps, `yyyy-MM-dd HH:mm:ss Z` ("2020-10-10 19:35:24 +0000").
///
/// Accepted: a space or `T` between date and time; optional fractional seconds; a zone of
/// `+HHMM`, `+HH:MM`, `+HH`, `Z`, `UTC` or `GMT` (also `GMT+HH:MM`), or none at all, as
/// macOS writes them; a time stamp without a zone is read as UTC and says so. O(length).
struct MetricKitTimestamp: Equatable {
    /// Nanoseconds since the Unix epoch.
    var nanoseconds: Int64
    /// Whether the text named a zone; without one the time was taken as UTC.
    var hasZone: Bool

    init(nanoseconds: Int64, hasZone: Bool) {
        self.nanoseconds = nanoseconds
        self.hasZone = hasZone
    }

    /// Parses `text`, or returns nil when it is not a time stamp of the form above.
    init?(_ text: String) {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2),
            reader.skip("-"), let day = reader.number(digits: 2), reader.skip(" ") || reader.skip("T"),
            let hour = reader.number(digits: 2), reader.skip(":"), let minute = reader.number(digits: 2),
            reader.skip(":"), let second = reader.number(digits: 2)
        else { return nil }
        guard CivilDate.isValid(year: year, month: month, day: day), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        var fraction: Int64 = 0
        if reader.skip(".") || reader.skip(",") {
            var scale: Int64 = 100_000_000
            var digits = 0
            while let digit = reader.digit() {
                fraction += Int64(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        while reader.skip(" ") {}
        guard let offset = reader.zone() else { return nil }
        while reader.skip(" ") {}
        guard reader.isAtEnd else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - (offset ?? 0)
        // Four-digit years reach further than 64-bit nanoseconds do (±292 years of 1970):
        // such a time stamp is not one Drain can hold, and its reader warns and ignores it.
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, carried) = scaled.addingReportingOverflow(fraction)
        guard !overflow, !carried else { return nil }
        self.init(nanoseconds: nanoseconds, hasZone: offset != nil)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func skip(word: String) -> Bool {
            let text = Array(word.utf8)
            guard bytes[index...].starts(with: text) else { return false }
            index += text.count
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, ASCII.isDigit(bytes[index]) else { return nil }
            index += 1
            return Int(bytes[index - 1] - ASCII.zero)
        }

        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// The zone's offset from UTC in seconds: `.some(nil)` when there is no zone, nil
        /// when the text there is not a zone.
        mutating func zone() -> Int64?? {
            if isAtEnd { return .some(nil) }
            if skip("Z") { return 0 }
            if skip(word: "UTC") || skip(word: "GMT"), isAtEnd || bytes[index] == UInt8(ascii: " ") { return 0 }
            let sign: Int64
            if skip("+") {
                sign = 1
            } else if skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(digits: 2), hours <= 14 else { return nil }
            var minutes = 0
            if !isAtEnd {
                _ = skip(":")
                guard let value = number(digits: 2), value < 60 else { return nil }
                minutes = value
            }
            return sign * Int64(hours * 3600 + minutes * 60)
        }
    }
}
