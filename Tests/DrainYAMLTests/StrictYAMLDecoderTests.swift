import DrainYAML
import Testing

/// A gate budget file's shape: nested mappings whose values carry units, so they are text to
/// the decoder and parsed by the budget type.
struct BudgetFile: Decodable, Equatable {
    enum Level: String, Decodable, CaseIterable { case warn, fail }

    struct Limit: Decodable, Equatable {
        var max: String
        var level: Level
        var note: String?
    }

    struct Energy: Decodable, Equatable {
        var total: Limit
        var radio: Limit?
    }

    var energy: Energy
    var memory: [String: Limit]
}

@Suite struct StrictYAMLDecoderTests {
    let budget = """
        energy:
          total: {max: 12 J, level: warn}
          radio: {max: 4.5 J, level: fail, note: "cellular only"}
        memory:
          peak: {max: 300 MB, level: fail}
        """

    func failure<T: Decodable>(_ type: T.Type, _ yaml: String) -> YAMLError? {
        do {
            _ = try StrictYAMLDecoder().decode(type, from: yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesANestedBudgetWithUnitBearingValues() throws {
        let file = try StrictYAMLDecoder().decode(BudgetFile.self, from: budget)
        #expect(file.energy.total == BudgetFile.Limit(max: "12 J", level: .warn))
        #expect(file.energy.radio == BudgetFile.Limit(max: "4.5 J", level: .fail, note: "cellular only"))
        #expect(file.memory == ["peak": BudgetFile.Limit(max: "300 MB", level: .fail)])
    }

    @Test func unknownKeyNamesItsKeyPathLineAndTheExpectedKeys() throws {
        let error = try #require(failure(BudgetFile.self, budget.replacingOccurrences(of: "note:", with: "nte:")))
        #expect(error.kind == .unknownKey)
        #expect(error.keyPath == ["energy", "radio", "nte"])
        #expect(error.line == 3 && error.column == 36)
        #expect(error.message == "unknown key (expected one of max, level, note)")
        #expect(error.description == "3:36: energy.radio.nte: unknown key (expected one of max, level, note)")
    }

    @Test func missingRequiredKeyNamesTheMappingThatLacksIt() throws {
        let error = try #require(failure(BudgetFile.self, budget.replacingOccurrences(of: "{max: 300 MB, level: fail}", with: "{max: 300 MB}")))
        #expect(error.kind == .missingValue)
        #expect(error.keyPath == ["memory", "peak", "level"])
        #expect(error.line == 5)
    }

    @Test func wrongTypesAndUnknownChoicesAreRefused() throws {
        let list = try #require(failure(BudgetFile.self, budget.replacingOccurrences(of: "{max: 12 J, level: warn}", with: "[12 J]")))
        #expect(list.kind == .wrongType)
        #expect(list.keyPath == ["energy", "total"])
        #expect(list.message == "expected a mapping of keys to values, found a list")
        let choice = try #require(failure(BudgetFile.self, budget.replacingOccurrences(of: "level: warn", with: "level: loud")))
        #expect(choice.kind == .invalidValue)
        #expect(choice.keyPath == ["energy", "total", "level"])
        #expect(choice.message == #"unknown value "loud" (expected one of warn, fail)"#)
    }

    struct Numbers: Decodable {
        var ratio: Double
        var count: Int
        var strict: Bool
    }

    @Test(arguments: [
        ("ratio: \"0.5\"\ncount: 1\nstrict: true\n", "ratio", YAMLError.Kind.wrongType),
        ("ratio: .inf\ncount: 1\nstrict: true\n", "ratio", .invalidValue),
        ("ratio: 0.5\ncount: 1.5\nstrict: true\n", "count", .invalidValue),
        ("ratio: 0.5\ncount: 1\nstrict: \"true\"\n", "strict", .wrongType),
        ("ratio: 0.5\ncount: 1\nstrict: 1\n", "strict", .wrongType),
        ("ratio: 0.5\ncount:\nstrict: true\n", "count", .missingValue),
    ])
    func scalarsAreTypedStrictly(_ yaml: String, _ key: String, _ kind: YAMLError.Kind) throws {
        let error = try #require(failure(Numbers.self, yaml))
        #expect(error.kind == kind)
        #expect(error.keyPath == [key])
        #expect(error.line == yaml.split(separator: "\n").firstIndex { $0.hasPrefix(key) }.map { $0 + 1 })
    }

    @Test func numbersDecode() throws {
        let numbers = try StrictYAMLDecoder().decode(Numbers.self, from: "ratio: -0.25\ncount: 3\nstrict: false\n")
        #expect(numbers.ratio == -0.25 && numbers.count == 3 && !numbers.strict)
    }

    @Test func duplicateKeysAnchorsAndAliasesAreRefused() throws {
        let duplicate = try #require(failure(BudgetFile.self, budget + "\nmemory: {}\n"))
        #expect(duplicate.kind == .syntax)
        #expect(duplicate.message == #"duplicate key "memory""#)
        let alias = """
            energy:
              total: &limit {max: 12 J, level: warn}
            memory:
              peak: *limit
            """
        let anchored = try #require(failure(BudgetFile.self, alias))
        #expect(anchored.kind == .syntax)
        #expect(anchored.line == 2)
        #expect(anchored.message.contains("anchors and aliases"))
    }

    @Test func malformedAndEmptyDocumentsAreRefused() throws {
        let malformed = try #require(failure(BudgetFile.self, "energy: {total: [\n"))
        #expect(malformed.kind == .syntax)
        #expect(malformed.line != nil)
        #expect(failure(BudgetFile.self, "# nothing\n")?.kind == .missingValue)
    }

    /// A type's own check reports at its key, with the position from the document.
    struct Positive: Decodable {
        var amount: Double

        enum CodingKeys: String, CodingKey { case amount }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            amount = try container.decode(Double.self, forKey: .amount)
            guard amount > 0 else { throw decoder.yamlError(.invalidValue, "must be above 0", key: "amount") }
        }
    }

    @Test func typesReportTheirOwnChecksAtTheirPosition() throws {
        let error = try #require(failure([String: Positive].self, "a: {amount: 1}\nb:\n  amount: 0\n"))
        #expect(error.keyPath == ["b", "amount"])
        #expect(error.line == 3 && error.column == 11)
        #expect(error.message == "must be above 0")
        let unknown = try #require(failure([String: Positive].self, "a: {amount: 1, unit: J}\n"))
        #expect(unknown.kind == .unknownKey)
        #expect(unknown.keyPath == ["a", "unit"])
        #expect(unknown.message == "unknown key (expected one of amount)")
    }

    /// A type that lists its keys (`CaseIterable`) and reads `level` only in one mode.
    struct Switch: Decodable, Equatable {
        enum CodingKeys: String, CodingKey, CaseIterable { case mode, level, note }
        var mode: String
        var level: Double?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mode = try container.decode(String.self, forKey: .mode)
            level = mode == "fixed" ? try container.decode(Double.self, forKey: .level) : nil
        }
    }

    /// `Switch` as a nested container of its parent, so no value of its own is decoded.
    struct Outer: Decodable {
        enum CodingKeys: String, CodingKey { case inner }
        var mode: String

        init(from decoder: any Decoder) throws {
            let inner = try decoder.container(keyedBy: CodingKeys.self).nestedContainer(keyedBy: Switch.CodingKeys.self, forKey: .inner)
            mode = try inner.decode(String.self, forKey: .mode)
        }
    }

    @Test func aTypeThatListsItsKeysAcceptsAListedKeyItDidNotRead() throws {
        #expect(try StrictYAMLDecoder().decode(Switch.self, from: "mode: auto\nlevel: 3\nnote: x\n").level == nil)
        #expect(try StrictYAMLDecoder().decode(Switch.self, from: "mode: fixed\nlevel: 3\n").level == 3)
    }

    @Test func aKeyNotListedComesBeforeAnyOtherErrorOfItsMapping() throws {
        // `level` is text where a number is expected, and `nte` is not a key of the type.
        let error = try #require(failure(Switch.self, "mode: fixed\nlevel: high\nnte: 1\n"))
        #expect(error.kind == .unknownKey)
        #expect(error.keyPath == ["nte"])
        #expect(error.line == 3 && error.column == 1)
        #expect(error.message == "unknown key (expected one of mode, level, note)")
        // The same when the type's own read fails for a missing key.
        #expect(failure(Switch.self, "mode: fixed\nnte: 1\n")?.keyPath == ["nte"])
        // In document order, before a key that is not text.
        #expect(failure(Switch.self, "mode: auto\nnte: 1\n? [a, b]\n: 2\n")?.keyPath == ["nte"])
        #expect(failure(Switch.self, "mode: auto\n? [a, b]\n: 2\nnte: 1\n")?.message == "keys must be plain text, found a list")
    }

    @Test func aNestedContainerIsCheckedAgainstTheKeysItLists() throws {
        #expect(try StrictYAMLDecoder().decode(Outer.self, from: "inner: {mode: auto, note: x}\n").mode == "auto")
        let error = try #require(failure(Outer.self, "inner: {mode: auto, nte: x}\n"))
        #expect(error.kind == .unknownKey)
        #expect(error.keyPath == ["inner", "nte"])
        #expect(error.message == "unknown key (expected one of mode, level, note)")
    }

    @Test func untrustedKeysAreEscapedInThePath() throws {
        let error = try #require(failure(Numbers.self, "ratio: 1\ncount: 1\nstrict: true\n\"x\\e[31m\": 1\n"))
        #expect(error.dottedKeyPath == "x\\u001B[31m")
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B })
    }
}
