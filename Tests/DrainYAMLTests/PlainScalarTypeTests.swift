@testable import DrainYAML
import DrainTestSupport
import Foundation
import Testing
import Yams

/// `PlainScalarType` stands in for Yams' default resolver (its YAML 1.1 patterns): it must
/// give every plain scalar the type that resolver gives it, as far as the decoder reads
/// types (bool, int, float, anything else).
@Suite struct PlainScalarTypeTests {
    static func resolverType(_ text: String) -> PlainScalarType {
        switch Resolver.default.resolveTag(of: Node.scalar(Node.Scalar(text, Tag(.implicit), .plain))) {
        case .bool: .bool
        case .int: .int
        case .float: .float
        default: .other
        }
    }

    static func expectAgreement(_ texts: some Sequence<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        var disagreements: [String] = []
        for text in texts where PlainScalarType(text) != resolverType(text) {
            disagreements.append("\(text.debugDescription): ours \(PlainScalarType(text)), Yams \(resolverType(text))")
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test func edgeCasesOfEveryPatternAgreeWithYamsDefaultResolver() {
        let texts = [
            "", "0", "-0", "+0", "00", "07", "08", "09", "0_", "0o", "0o7", "0o8", "0b", "0b1", "0b2", "0b_", "-0b101", "0x", "0x1F",
            "0xg", "+0x_", "1", "12", "1_000", "_1", "1_", "-12", "+", "-", "1:30", "1:60", "1:5", "1:", "1::2", "1:2:3", "0:30",
            "01:30", "1_:30", "1a:30", "-1:30", "1:30.5", "1:30.", "0:30.5", "1:30.5e3", "1:3.0:5", "-1:30.5", "1:60.5", "1.5",
            "1.", ".5", "._", ".", "-.5", "+.5", ".5e3", ".5e+3", ".5E-3", "._5e+3", "1e5", "1E+5", "1e", "1e+", "1.5e-3", "1.5.3",
            "1__", "1_000.5_", "1.5E", "1e5.5", ".inf", "+.inf", "-.inf", ".Inf", ".INF", ".iNf", "inf", ".nan", ".NaN", ".NAN",
            "-.nan", "+.nan", "nan", "yes", "Yes", "YES", "yEs", "no", "No", "NO", "true", "True", "TRUE", "tRue", "false", "False",
            "FALSE", "on", "On", "ON", "off", "Off", "OFF", "y", "n", "null", "~", "<<", "=", "2026-11-27", "12 J", "4.5 J",
            "300 MB", "1 000", " 1", "1 ", "١", "１", "1\u{301}", "0.000_1", "6.02e23", "3.",
        ]
        Self.expectAgreement(texts)
    }

    /// Random texts from the characters the patterns are made of, up to 8 long: every
    /// combination of sign, prefix, digit, separator and exponent the patterns weigh.
    @Test func randomTextsAgreeWithYamsDefaultResolver() {
        let alphabet = Array("0123456789_.:eE+-xbo afF9in").map(String.init) + ["inf", "nan", "Inf", "NaN", "0x", "0o", "0b", ":5", ":59"]
        var generator = SystemRandomNumberGenerator()
        let texts = (0..<20_000).map { _ in
            (0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
        }
        Self.expectAgreement(texts)
    }

    /// Every plain scalar of the built-in models and the documented budget and rule files.
    @Test func everyScalarOfTheShippedYAMLFilesAgrees() throws {
        let files = ["models/iphone-lte.yaml", "models/iphone-wifi.yaml", "models/iphone-5g-nsa.yaml", "models/android-pixel-lte.yaml",
                     "Fuzz/seeds/budget/documented.yaml", "Fuzz/seeds/rules/documented.yaml"]
        var scalars: [String] = []
        func collect(_ node: Node) {
            switch node {
            case .scalar(let scalar) where scalar.style == .plain: scalars.append(scalar.string)
            case .scalar, .alias: break
            case .mapping(let mapping):
                for (key, value) in mapping {
                    collect(key)
                    collect(value)
                }
            case .sequence(let sequence): sequence.forEach(collect)
            }
        }
        for file in files {
            let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
            if let root = try Yams.compose(yaml: text) { collect(root) }
        }
        #expect(scalars.count > 400)
        #expect(scalars.contains { PlainScalarType($0) == .float } && scalars.contains { PlainScalarType($0) == .int })
        Self.expectAgreement(scalars)
    }

    /// What the decoder reads from a document parsed without resolver patterns: untagged
    /// plain scalars by their text, quoted ones as text, explicit tags as written.
    struct Values: Decodable, Equatable {
        var ratio: Double
        var count: Int
        var hex: Int
        var enabled: Bool
        var label: String
    }

    @Test func tagsDecideAsBefore() throws {
        let decoded = try StrictYAMLDecoder().decode(Values.self, from: "ratio: 1.5e3\ncount: 1_000\nhex: 0x1F\nenabled: yes\nlabel: 12\n")
        #expect(decoded == Values(ratio: 1500, count: 1000, hex: 31, enabled: true, label: "12"))
        for (yaml, path) in [
            ("ratio: \"1.5\"\ncount: 1\nhex: 1\nenabled: true\nlabel: x\n", "ratio"),
            ("ratio: !!str 1.5\ncount: 1\nhex: 1\nenabled: true\nlabel: x\n", "ratio"),
            ("ratio: 1\ncount: 1\nhex: 1\nenabled: 'true'\nlabel: x\n", "enabled"),
            ("ratio: 1\ncount: 1\nhex: 1\nenabled: 1\nlabel: x\n", "enabled"),
        ] {
            #expect(throws: YAMLError.self, "\(path) in \(yaml.debugDescription)") { try StrictYAMLDecoder().decode(Values.self, from: yaml) }
        }
        #expect(try StrictYAMLDecoder().decode(Values.self, from: "ratio: !!float 2\ncount: !!int 3\nhex: 1\nenabled: !!bool true\nlabel: x\n")
            == Values(ratio: 2, count: 3, hex: 1, enabled: true, label: "x"))
    }
}
