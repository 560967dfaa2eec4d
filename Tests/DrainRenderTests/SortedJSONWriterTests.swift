@testable import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// `SortedJSONWriter` must write exactly the bytes of Foundation's `JSONEncoder` (sorted keys,
/// slashes unescaped, pretty or compact): saved reports, baselines and the history store keep
/// those bytes, and two builds must not disagree about them.
@Suite struct SortedJSONWriterTests {
    static func foundationBytes(_ value: some Encodable, pretty: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func expectSameBytes(_ value: some Encodable, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [true, false] {
            let ours = try SortedJSONWriter.encode(value, pretty: pretty)
            let theirs = try foundationBytes(value, pretty: pretty)
            let same = ours == theirs
            #expect(
                same,
                "\(comment) pretty=\(pretty):\nours   \(String(decoding: ours.prefix(400), as: UTF8.self))\ntheirs \(String(decoding: theirs.prefix(400), as: UTF8.self))",
                sourceLocation: sourceLocation)
        }
    }

    struct Scalars: Encodable {
        var text = "plain"
        var double = 0.1
        var float: Float = 0.1
        var int = -42
        var bool = false
        var optionalPresent: Int? = 7
        var optionalAbsent: String? = nil
        var int8: Int8 = .min
        var int16: Int16 = .min
        var int32: Int32 = .min
        var int64: Int64 = .min
        var uint: UInt = .max
        var uint8: UInt8 = .max
        var uint16: UInt16 = .max
        var uint32: UInt32 = .max
        var uint64: UInt64 = .max
        var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        var emptyArray: [Int] = []
        var emptyObject: [String: Int] = [:]
        var nestedEmpty: [[String]] = [[], []]
        var byNumber: [Int: String] = [10: "ten", 9: "nine", 100: "hundred"]
    }

    @Test func scalarsAndEmptyContainersAreFoundationsBytes() throws {
        try Self.expectSameBytes(Scalars())
        try Self.expectSameBytes([Scalars(), Scalars(text: "second", optionalAbsent: "here")])
    }

    @Test func everyControlCharacterQuoteBackslashAndNonASCIIIsEscapedAsFoundationDoes() throws {
        var text = ""
        for scalar in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        text += "/\\\"é\u{2028}\u{FEFF}😀 <script>alert(1)</script>"
        try Self.expectSameBytes([text])
        try Self.expectSameBytes([text: text], "as a key")
    }

    /// Numbers are spelled by their shortest round-trip `description` with an integral `.0`
    /// dropped, exponents as `1e-07`/`1e+21`: checked at powers of ten, at the edges of the
    /// types and at random bit patterns.
    @Test func doublesAndFloatsAreSpelledAsFoundationSpellsThem() throws {
        var doubles: [Double] = [0, -0.0, 1, -1, 0.5, 1e15, 1e16, 1e17, 1e21, 1e-7, 2.5e-5, 0.1 + 0.2, .ulpOfOne, .leastNonzeroMagnitude,
                                 .leastNormalMagnitude, .greatestFiniteMagnitude, 1.2345678901234568e20]
        var floats: [Float] = [0, -0.0, 1, 0.1, 16_777_216, 3.4e38, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 12345.678]
        for exponent in -30...30 {
            doubles.append(pow(10, Double(exponent)))
            doubles.append(3.7 * pow(10, Double(exponent)))
            floats.append(Float(pow(10, Double(exponent))))
        }
        var generator = SystemRandomNumberGenerator()
        while doubles.count < 3_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { doubles.append(value) }
        }
        while floats.count < 3_000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if value.isFinite { floats.append(value) }
        }
        try Self.expectSameBytes(doubles)
        try Self.expectSameBytes(floats)
    }

    /// A JSON-like tree with keys in whatever order the tree holds them, so objects reach the
    /// writer unsorted, nested at random depths.
    indirect enum Tree: Encodable {
        case number(Double)
        case text(String)
        case flag(Bool)
        case nothing
        case list([Tree])
        case object([(String, Tree)])

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .number(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .text(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .flag(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .nothing:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .list(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(element) }
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
            }
        }

        static func random(depth: Int, using generator: inout some RandomNumberGenerator) -> Tree {
            let keys = ["a", "b", "B", "a10", "a9", "a_b", "ab", "z", "é", "Z", "_", "id", "end_s", "start_s", "", "a b", "\u{1}"]
            switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .number(Double.random(in: -1e6...1e6, using: &generator))
            case 1: return .text(keys.randomElement(using: &generator)!)
            case 2: return .flag(Bool.random(using: &generator))
            case 3: return .nothing
            case 4: return .list((0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth: depth + 1, using: &generator) })
            default:
                let chosen = keys.shuffled(using: &generator).prefix(Int.random(in: 0...6, using: &generator))
                return .object(chosen.map { ($0, random(depth: depth + 1, using: &generator)) })
            }
        }
    }

    @Test func randomTreesWithUnsortedKeysAreFoundationsBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<400 {
            let tree = Tree.object([("root", Tree.random(depth: 0, using: &generator)), ("after", .list([Tree.random(depth: 1, using: &generator)]))])
            try Self.expectSameBytes(tree, "tree \(index)")
        }
    }

    /// "é" and "e\u{301}" are equal Swift strings but sort apart by their bytes: the order
    /// remembered for one object's keys must not be reused for the other's.
    @Test func keysThatDifferOnlyInNormalisationAreSortedByTheirOwnBytes() throws {
        let composed = Tree.object([("é", .number(1)), ("a", .number(2)), ("z", .number(3))])
        let decomposed = Tree.object([("e\u{301}", .number(1)), ("a", .number(2)), ("z", .number(3))])
        try Self.expectSameBytes(Tree.list([composed, decomposed, composed]))
        let text = String(decoding: try SortedJSONWriter.encode(Tree.list([composed, decomposed]), pretty: false), as: UTF8.self)
        #expect(text == "[{\"a\":2,\"z\":3,\"é\":1},{\"a\":2,\"e\u{301}\":1,\"z\":3}]")
    }

    /// Synthesized `Codable` of an enum with associated values fills a nested container that
    /// stays open until its parent's next member: the writer closes it then.
    enum Shape: Encodable, Equatable {
        case circle(radius: Double)
        case box(width: Double, height: Double, label: String?)
        case point
    }

    struct Drawing: Encodable {
        var shapes: [Shape]
        var title: String
        var byName: [String: Shape]
    }

    @Test func nestedContainersOfSynthesizedEnumsAreFoundationsBytes() throws {
        let drawing = Drawing(
            shapes: [.circle(radius: 2.5), .box(width: 1, height: 2, label: nil), .box(width: 3, height: 4, label: "x/y"), .point],
            title: "t", byName: ["zeta": .point, "alpha": .circle(radius: 1e-9)])
        try Self.expectSameBytes(drawing)
    }

    @Test func theReportFixturesAreFoundationsBytes() throws {
        for name in ReportFixture.names {
            try Self.expectSameBytes(ReportFixture.named(name), name)
        }
    }

    /// The report's types declare their coding keys in key order, so the writer sorts none of
    /// their objects: with every list of the report three times as long (findings, rules,
    /// endpoints, threads, thresholds, inputs, the radio lane and bursts, timeline marks), it
    /// sorts exactly as many objects as before — only dictionaries, whose order is their hash's.
    @Test func reportRowsComeInKeyOrderAndAreNotSorted() throws {
        let report = ReportFixture.realistic
        var longer = report
        longer.findings += report.findings + report.findings
        longer.rules += report.rules + report.rules
        longer.endpoints += report.endpoints + report.endpoints
        longer.breakdown += report.breakdown + report.breakdown
        longer.threads += report.threads + report.threads
        longer.thresholds += report.thresholds + report.thresholds
        longer.inputs += report.inputs + report.inputs
        longer.radio.states += report.radio.states + report.radio.states
        longer.radio.lane += report.radio.lane + report.radio.lane
        longer.radio.bursts += report.radio.bursts + report.radio.bursts
        longer.timeline.lifecycle += report.timeline.lifecycle + report.timeline.lifecycle
        longer.timeline.marks += report.timeline.marks + report.timeline.marks
        #expect(!report.findings.isEmpty && !report.radio.lane.isEmpty && !report.radio.bursts.isEmpty)
        #expect(!report.timeline.lifecycle.isEmpty && !report.timeline.marks.isEmpty && !report.thresholds.isEmpty)
        for pretty in [true, false] {
            let once = try SortedJSONWriter.encodeCountingReorders(report, pretty: pretty)
            let thrice = try SortedJSONWriter.encodeCountingReorders(longer, pretty: pretty)
            #expect(thrice.bytes.count > once.bytes.count * 2)
            #expect(
                thrice.reorderedObjects == once.reorderedObjects,
                "a report type encodes its keys out of key order (declare its CodingKeys sorted); pretty=\(pretty)")
            #expect(thrice.bytes == (try Self.foundationBytes(longer, pretty: pretty)))
        }
    }

    /// Rows of the radio lane and the burst list are written member by member, not through
    /// `Encodable` (`JSONRow`): the same bytes as Foundation's for rows with every kind of
    /// value, alone, nested and empty, and a non-finite number in one still names its path.
    struct RowHolder: Encodable {
        var bursts: [BurstSummary]
        var lane: [RadioLaneSegment]
        var nested: [[BurstSummary]]
    }

    @Test func rowsWrittenMemberByMemberAreFoundationsBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let texts = ["cellular", "wifi", "", "api.example.com", "a\"b\\c\n\u{1}/é→日本 </script>", "2001:db8::1 → 443"]
        func number() -> Double {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return Double(Int.random(in: -5...100_000, using: &generator))
            case 1: return Double.random(in: 0..<1e7, using: &generator)
            case 2:
                let pattern = Double(bitPattern: generator.next())
                return pattern.isFinite ? pattern : 0.5
            default: return [0.1 + 0.2, 1e-7, 1e21, -0.0, 2049.5155184882497][Int.random(in: 0..<5, using: &generator)]
            }
        }
        func burst() -> BurstSummary {
            BurstSummary(
                link: texts.randomElement(using: &generator)!, startS: number(), endS: number(), endpoint: texts.randomElement(using: &generator)!,
                endpoints: Int.random(in: 0...Int.max, using: &generator), bytesUp: Int64.random(in: .min ... .max, using: &generator),
                bytesDown: Int64.random(in: 0...1 << 40, using: &generator), events: Int.random(in: -3...1_000, using: &generator), energyJ: number())
        }
        func segment() -> RadioLaneSegment {
            RadioLaneSegment(link: texts.randomElement(using: &generator)!, state: texts.randomElement(using: &generator)!, startS: number(), endS: number())
        }
        for count in [0, 1, 2, 7, 200] {
            let bursts = (0..<count).map { _ in burst() }
            let lane = (0..<count).map { _ in segment() }
            try Self.expectSameBytes(bursts, "\(count) bursts at the top")
            try Self.expectSameBytes(lane, "\(count) lane segments at the top")
            try Self.expectSameBytes(RowHolder(bursts: bursts, lane: lane, nested: [bursts, [], bursts]), "\(count) rows nested")
        }
        var report = ReportFixture.realistic
        report.radio.bursts[report.radio.bursts.count - 1].energyJ = .nan
        #expect(throws: ReportRenderError.nonFiniteNumber(path: "radio.bursts[\(report.radio.bursts.count - 1)].energy_j")) {
            try ReportJSON.encode(report, pretty: true)
        }
    }

    struct NonFinite: Encodable {
        var values: [Double]
    }

    @Test func nonFiniteNumbersAreLeftToFoundationWhichNamesThePath() throws {
        #expect(throws: SortedJSONWriter.Failure.nonFiniteNumber) {
            try SortedJSONWriter.encode(NonFinite(values: [1, .nan]), pretty: true)
        }
        #expect(throws: ReportRenderError.nonFiniteNumber(path: "values[1]")) {
            try ReportJSON.encode(NonFinite(values: [1, .infinity]), pretty: true)
        }
    }

    /// Uses a container after a sibling value was started: not the shape synthesized code
    /// makes, so the writer declines and `ReportJSON` gives Foundation's bytes.
    struct OutOfOrder: Encodable {
        enum Key: String, CodingKey { case first, second, third }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var first = container.nestedUnkeyedContainer(forKey: .first)
            var second = container.nestedUnkeyedContainer(forKey: .second)
            try second.encode(2)
            try first.encode(1)
            try container.encode(3, forKey: .third)
        }
    }

    struct DuplicateKey: Encodable {
        enum Key: String, CodingKey { case only }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .only)
            try container.encode(2, forKey: .only)
        }
    }

    /// Encodes a parent's members through `superEncoder()`, as a class hierarchy might.
    struct ThroughSuper: Encodable {
        enum Key: String, CodingKey { case own }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .own)
            try [2, 3].encode(to: container.superEncoder())
        }
    }

    @Test func shapesTheWriterDoesNotFollowFallBackToFoundation() throws {
        #expect(throws: SortedJSONWriter.Failure.unsupportedShape) { try SortedJSONWriter.encode(ThroughSuper(), pretty: false) }
        #expect(try ReportJSON.encode(ThroughSuper(), pretty: false) == #"{"own":1,"super":[2,3]}"#)
        #expect(throws: SortedJSONWriter.Failure.unsupportedShape) { try SortedJSONWriter.encode(OutOfOrder(), pretty: false) }
        #expect(throws: SortedJSONWriter.Failure.unsupportedShape) { try SortedJSONWriter.encode(DuplicateKey(), pretty: false) }
        #expect(try ReportJSON.encode(OutOfOrder(), pretty: false) == ReportJSON.foundationEncode(OutOfOrder(), pretty: false))
        #expect(try ReportJSON.encode(OutOfOrder(), pretty: false) == #"{"first":[1],"second":[2],"third":3}"#)
        #expect(try ReportJSON.encode(DuplicateKey(), pretty: false) == ReportJSON.foundationEncode(DuplicateKey(), pretty: false))
    }
}
