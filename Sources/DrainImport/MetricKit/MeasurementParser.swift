/// Reads MetricKit's unit-suffixed values ("20 secs.", "2,000 byte", "200000 kB",
/// "1.300,5 kB") into machine units: seconds, bytes, instructions.
///
/// `jsonRepresentation()` formats each measurement for the device's locale, and the
/// spelling drifts between OS versions, so the parser is tolerant:
/// - digits may be any Unicode decimal digits (Arabic-Indic, Devanagari…);
/// - thousands may be grouped with `,`, `.`, `'`, `’`, a space, a no-break space or a
///   narrow no-break space, in groups of three;
/// - the decimal separator is `.` or `,`: the last separator is decimal when it differs from
///   the grouping before it, or is the only one and is `.`, or is a `,` not followed by
///   exactly three digits. So "2,000" is 2000, "1,5" is 1.5, "1.300.000" is 1300000, and
///   "1.300" is 1.3 (a lone `.` is read as a decimal point, the common case);
/// - unit words and abbreviations are matched without case, singular or plural, with
///   trailing dots dropped (`sec`, `secs.`, `seconds`, `ms`, `min`, `hr`, `h`, `byte`, `B`,
///   `kB`, `KB`, `KiB`, `MB`, `GB`, `kiloinstructions`…). `kB`, `KB` and `MB` are decimal
///   (1000, 10^6), as Apple's `UnitInformationStorage` is; `KiB`, `MiB` and `GiB` binary.
///
/// All functions are O(length of the text).
enum MeasurementParser {
    /// What a value measures, which decides the units it may carry.
    enum Dimension: String, Sendable {
        case duration, bytes, instructions

        /// The units of this dimension, by lower-cased name, with their size in the base unit.
        var units: [String: Double] {
            switch self {
            case .duration: MeasurementParser.durationUnits
            case .bytes: MeasurementParser.byteUnits
            case .instructions: MeasurementParser.instructionUnits
            }
        }

        /// The base unit, for messages.
        var baseUnit: String {
            switch self {
            case .duration: "seconds"
            case .bytes: "bytes"
            case .instructions: "instructions"
            }
        }
    }

    /// Why a value could not be read, for a diagnostic.
    enum Failure: Error, Equatable {
        case noNumber
        case noUnit
        case unknownUnit(String)
    }

    /// The value of `text` in `dimension`'s base unit.
    static func value(_ text: String, as dimension: Dimension) -> Result<Double, Failure> {
        guard let (number, rest) = leadingNumber(text) else { return .failure(.noNumber) }
        let unit = unitName(rest)
        guard !unit.isEmpty else { return .failure(.noUnit) }
        guard let scale = dimension.units[unit] else { return .failure(.unknownUnit(String(unit))) }
        // Sub-units divide by their (exact) reciprocal, so that "700 ms" is 0.7 s exactly.
        return .success(scale < 1 ? number / (1 / scale).rounded() : number * scale)
    }

    /// The number at the start of `text` (after blanks) and the text after it, or nil when
    /// it does not start with a well-grouped number.
    static func leadingNumber(_ text: String) -> (Double, Substring.UnicodeScalarView)? {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, isBlank(first) { scalars.removeFirst() }
        var groups: [[UInt8]] = [[]]
        var separators: [Unicode.Scalar] = []
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if let digit = decimalDigit(scalar) {
                groups[groups.count - 1].append(digit)
                index = scalars.index(after: index)
                continue
            }
            // A separator counts only between digits.
            let next = scalars.index(after: index)
            guard isSeparator(scalar), !groups[groups.count - 1].isEmpty, next < scalars.endIndex,
                decimalDigit(scalars[next]) != nil
            else { break }
            separators.append(scalar)
            groups.append([])
            index = next
        }
        guard !groups[0].isEmpty, let value = assemble(groups, separators) else { return nil }
        return (value, scalars[index...])
    }

    /// Joins digit groups into a number, deciding which separator (if any) is the decimal one.
    private static func assemble(_ groups: [[UInt8]], _ separators: [Unicode.Scalar]) -> Double? {
        var integerGroups = groups
        var fraction: [UInt8] = []
        if let last = separators.last, last == "." || last == "," {
            let previous = separators.dropLast()
            let isDecimal: Bool
            if let before = previous.last {
                isDecimal = before != last
            } else {
                isDecimal = last == "." || groups[1].count != 3
            }
            if isDecimal {
                fraction = integerGroups.removeLast()
            }
        }
        // Every separator left groups thousands: groups after the first hold three digits.
        if integerGroups.count > 1 {
            guard integerGroups[0].count <= 3, integerGroups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
            let grouping = separators.prefix(integerGroups.count - 1)
            guard let first = grouping.first, grouping.allSatisfy({ $0 == first }) else { return nil }
        }
        var digits = integerGroups.joined().map { Character(Unicode.Scalar($0 + 0x30)) }
        if !fraction.isEmpty { digits += ["."] + fraction.map { Character(Unicode.Scalar($0 + 0x30)) } }
        guard let value = Double(String(digits)), value.isFinite else { return nil }
        return value
    }

    /// The unit after a number: blanks and trailing dots dropped, lower-cased.
    static func unitName(_ rest: Substring.UnicodeScalarView) -> String {
        var scalars = rest
        while let first = scalars.first, isBlank(first) { scalars.removeFirst() }
        while let last = scalars.last, isBlank(last) || last == "." { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars)).lowercased()
    }

    private static func decimalDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.isASCII { return scalar.value >= 0x30 && scalar.value <= 0x39 ? UInt8(scalar.value - 0x30) : nil }
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return UInt8(value)
    }

    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ",", ".", "'", "\u{2019}", " ", "\u{00A0}", "\u{202F}": true
        default: false
        }
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\u{00A0}" || scalar == "\u{202F}"
    }

    private static func names(_ names: [String], _ scale: Double) -> [(String, Double)] {
        names.map { ($0, scale) }
    }

    static let durationUnits = Dictionary(
        uniqueKeysWithValues:
            names(["ns", "nsec", "nsecs", "nanosecond", "nanoseconds"], 1e-9)
            + names(["µs", "μs", "us", "usec", "usecs", "microsecond", "microseconds"], 1e-6)
            + names(["ms", "msec", "msecs", "millisecond", "milliseconds"], 1e-3)
            + names(["s", "sec", "secs", "second", "seconds"], 1)
            + names(["min", "mins", "minute", "minutes"], 60)
            + names(["h", "hr", "hrs", "hour", "hours"], 3600))

    static let byteUnits = Dictionary(
        uniqueKeysWithValues:
            names(["b", "byte", "bytes"], 1)
            + names(["kb", "kilobyte", "kilobytes"], 1e3)
            + names(["mb", "megabyte", "megabytes"], 1e6)
            + names(["gb", "gigabyte", "gigabytes"], 1e9)
            + names(["tb", "terabyte", "terabytes"], 1e12)
            + names(["kib", "kibibyte", "kibibytes"], 1024)
            + names(["mib", "mebibyte", "mebibytes"], 1_048_576)
            + names(["gib", "gibibyte", "gibibytes"], 1_073_741_824))

    static let instructionUnits = Dictionary(
        uniqueKeysWithValues:
            names(["instruction", "instructions", "instr"], 1)
            + names(["kiloinstruction", "kiloinstructions", "kinstr"], 1e3)
            + names(["megainstruction", "megainstructions"], 1e6))
}
