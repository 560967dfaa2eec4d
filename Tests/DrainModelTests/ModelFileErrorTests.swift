import DrainTestSupport
import Foundation
import Testing
@testable import DrainModel

/// Bad model files: each mistake gives a `ModelError` naming the file, the key path and the
/// line.
struct ModelFileErrorTests {
    let valid: String
    let file = "models/broken.yaml"

    init() throws {
        valid = try #require(ModelCatalog.builtinYAML(named: "iphone-lte"))
    }

    /// `valid` with one exact piece of text replaced (which must occur exactly once).
    func edited(_ original: String, _ replacement: String) throws -> String {
        let parts = valid.components(separatedBy: original)
        try #require(parts.count == 2, "\(original) must occur once")
        return parts.joined(separator: replacement)
    }

    /// The 1-based line of the first occurrence of `text` in `yaml`.
    func line(of text: String, in yaml: String) throws -> Int {
        let range = try #require(yaml.range(of: text))
        return yaml[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }

    func error(loading yaml: String) throws -> ModelError {
        do {
            _ = try ModelCatalog.parse(yaml: yaml, file: file)
        } catch {
            return error
        }
        Issue.record("the model loaded")
        throw ModelError(file: file, problem: .syntax, message: "loaded")
    }

    @Test func validTextLoads() throws {
        #expect(try ModelCatalog.parse(yaml: valid, file: file).name == "iphone-lte")
    }

    @Test func unknownKeyIsNamedWithItsPathAndTheExpectedKeys() throws {
        let yaml = try edited("promotion_s: {value: 0.26", "promotoin_s: {value: 0.26")
        let error = try error(loading: yaml)
        #expect(error.problem == .unknownKey)
        #expect(error.keyPath == "radio.lte.promotoin_s")
        #expect(error.line == (try line(of: "promotoin_s", in: yaml)))
        #expect(error.column == 5)
        #expect(error.message.contains("expected one of promotion_s, promotion_w, inactivity_s"))
        #expect(error.description.hasPrefix("models/broken.yaml:\(error.line ?? 0):5: radio.lte.promotoin_s: unknown key"))
    }

    @Test func unknownTopLevelKey() throws {
        let error = try error(loading: valid + "colour: blue\n")
        #expect(error.problem == .unknownKey)
        #expect(error.keyPath == "colour")
    }

    @Test func unknownKeyInsideASourcedNumber() throws {
        let error = try error(loading: try edited("{value: 1.21, source:", "{value: 1.21, unit: W, source:"))
        #expect(error.problem == .unknownKey)
        #expect(error.keyPath == "radio.lte.promotion_w.unit")
        #expect(error.message.contains("expected one of value, source"))
    }

    @Test func missingRequiredValueIsNamed() throws {
        let original = try #require(valid.split(separator: "\n").first { $0.hasPrefix("    inactivity_s:") })
        let yaml = try edited(String(original) + "\n", "")
        let error = try error(loading: yaml)
        #expect(error.problem == .missingValue)
        #expect(error.keyPath == "radio.lte.inactivity_s")
        #expect(error.line == (try line(of: "promotion_s", in: yaml)), "the line of the mapping that lacks the key")
    }

    @Test func nullCountsAsMissing() throws {
        let title = try error(loading: try edited(#"title: "iPhone 13-class phone on LTE"#, #"title: ~ # "iPhone 13-class phone on LTE"#))
        #expect(title.problem == .missingValue)
        #expect(title.keyPath == "title")
        let value = try error(loading: try edited("{value: 2147483648,", "{value: ~,"))
        #expect(value.problem == .missingValue)
        #expect(value.keyPath == "memory.limit_bytes.value")
    }

    @Test func timeLongerThanTheClockAddsIsRefused() throws {
        // A wifi tail of 1e10 s loaded, then overflowed converting to nanoseconds in pricing.
        let yaml = try edited("tail_s: {value: 0.25,", "tail_s: {value: 1e10,")
        let error = try error(loading: yaml)
        #expect(error.problem == .invalidValue)
        #expect(error.keyPath == "radio.wifi.tail_s.value")
        #expect(error.line == (try line(of: "tail_s: {value: 1e10", in: yaml)))
        #expect(error.message.contains("must be at most 1e9 seconds (about 32 years)"))
        #expect(try ModelCatalog.parse(yaml: try edited("tail_s: {value: 0.25,", "tail_s: {value: 1e9,"), file: file).name == "iphone-lte")
    }

    @Test func negativeNumberIsRefused() throws {
        let yaml = try edited("{value: 1.21,", "{value: -1.21,")
        let error = try error(loading: yaml)
        #expect(error.problem == .negativeValue)
        #expect(error.keyPath == "radio.lte.promotion_w.value")
        #expect(error.line == (try line(of: "-1.21", in: yaml)))
        #expect(error.message.contains("-1.21"))
    }

    @Test func missingSourceIsRefused() throws {
        let error = try error(
            loading: try edited(#"{value: 0.26, source: "AT&T ARO / Video Optimizer lte.conf T_PROMOTION"}"#, "{value: 0.26}"))
        #expect(error.problem == .missingSource)
        #expect(error.keyPath == "radio.lte.promotion_s.source")
    }

    @Test func emptySourceIsRefused() throws {
        let error = try error(loading: try edited(#"source: "AT&T ARO lte.conf P_PROMOTION""#, #"source: "  ""#))
        #expect(error.problem == .missingSource)
        #expect(error.keyPath == "radio.lte.promotion_w.source")
    }

    @Test func bareNumberWithoutSourceIsRefused() throws {
        let error = try error(
            loading: try edited(#"{value: 0.26, source: "AT&T ARO / Video Optimizer lte.conf T_PROMOTION"}"#, "0.26"))
        #expect(error.problem == .missingSource)
        #expect(error.keyPath == "radio.lte.promotion_s")
        #expect(error.message.contains("{ value: 0.26, source:"))
    }

    @Test func nonNumericValuesAreRefused() throws {
        for replacement in ["{value: fast,", #"{value: "0.26","#, "{value: [1],", "{value: true,"] {
            let error = try error(loading: try edited("{value: 0.26,", replacement))
            #expect(error.problem == .wrongType, "\(replacement)")
            #expect(error.keyPath == "radio.lte.promotion_s.value")
            #expect(error.message.hasPrefix("expected a number"))
        }
        let infinite = try error(loading: try edited("{value: 0.26,", "{value: .inf,"))
        #expect(infinite.problem == .invalidValue)
    }

    @Test func sectionOfTheWrongShapeIsRefused() throws {
        let start = try #require(valid.range(of: "\ncpu:\n"))
        let end = try #require(valid.range(of: "\nradio:\n"))
        let yaml = valid.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "\ncpu: 3\n")
        let section = try error(loading: yaml)
        #expect(section.problem == .wrongType)
        #expect(section.keyPath == "cpu")
        #expect(section.message == #"expected a mapping of keys to values, found "3""#)
        let choice = try error(loading: try edited("  cellular: lte\n", "  cellular: {kind: lte}\n"))
        #expect(choice.problem == .wrongType)
        #expect(choice.keyPath == "radio.cellular")
    }

    @Test func unknownChoiceListsTheAllowedOnes() throws {
        let error = try error(loading: try edited("default_link: cellular", "default_link: satellite"))
        #expect(error.problem == .invalidValue)
        #expect(error.keyPath == "radio.default_link")
        #expect(error.message == #"unknown value "satellite" (expected one of cellular, wifi)"#)
    }

    @Test func cellularTechnologyNeedsItsParameters() throws {
        let start = try #require(valid.range(of: "  umts:\n"))
        let end = try #require(valid.range(of: "  wifi:\n"))
        let withoutUMTS = valid.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "")
        #expect(try ModelCatalog.parse(yaml: withoutUMTS, file: file).radio.umts == nil)
        let error = try error(loading: withoutUMTS.replacingOccurrences(of: "  cellular: lte", with: "  cellular: umts"))
        #expect(error.problem == .missingValue)
        #expect(error.keyPath == "radio.umts")
    }

    @Test func nonStandaloneNeedsTheNRLegAndItsLTEAnchor() throws {
        let withoutNR = try error(loading: try edited("  cellular: lte\n", "  cellular: nr_nsa\n"))
        #expect(withoutNR.problem == .missingValue)
        #expect(withoutNR.keyPath == "radio.nr")
        #expect(withoutNR.description.hasPrefix("models/broken.yaml:"))
        let nsa = try #require(ModelCatalog.builtinYAML(named: "iphone-5g-nsa"))
        let start = try #require(nsa.range(of: "  lte:\n"))
        let end = try #require(nsa.range(of: "  umts:\n"))
        let withoutAnchor = try error(loading: nsa.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: ""))
        #expect(withoutAnchor.problem == .missingValue)
        #expect(withoutAnchor.keyPath == "radio.lte")
        #expect(withoutAnchor.message.contains("LTE anchor"))
        let unknown = try error(loading: nsa.replacingOccurrences(of: "    tail_w: {value: 3.575,", with: "    tail_ww: {value: 3.575,"))
        #expect(unknown.keyPath == "radio.nr.tail_ww")
    }

    @Test func powerSaveNumbersMustFitTheBeaconSchedule() throws {
        let wifi = try #require(ModelCatalog.builtinYAML(named: "iphone-wifi"))
        func loading(_ original: String, _ replacement: String) throws -> ModelError {
            try #require(wifi.components(separatedBy: original).count == 2)
            return try error(loading: wifi.replacingOccurrences(of: original, with: replacement))
        }
        let fraction = try loading("dtim_period: {value: 2,", "dtim_period: {value: 1.5,")
        #expect(fraction.problem == .invalidValue)
        #expect(fraction.keyPath == "radio.wifi.psm.dtim_period.value")
        #expect(fraction.line != nil)
        #expect(try loading("dtim_period: {value: 2,", "dtim_period: {value: 0,").keyPath == "radio.wifi.psm.dtim_period.value")
        let window = try loading("listen_s: {value: 0.003,", "listen_s: {value: 0.3,")
        #expect(window.keyPath == "radio.wifi.psm.listen_s.value")
        #expect(window.message.contains("beacon_interval_s × dtim_period"))
        let beacon = try loading("beacon_interval_s: {value: 0.1024,", "beacon_interval_s: {value: 0,")
        #expect(beacon.keyPath == "radio.wifi.psm.beacon_interval_s.value")
        let missing = try loading("      listen_w: {value: 0.403,", "      listen_ww: {value: 0.403,")
        #expect(missing.keyPath == "radio.wifi.psm.listen_ww")
    }

    @Test func inconsistentNumbersAreRefused() throws {
        let onDuration = try error(loading: try edited("drx_on_s: {value: 0.002,", "drx_on_s: {value: 0.03,"))
        #expect(onDuration.problem == .invalidValue)
        #expect(onDuration.keyPath == "radio.lte.drx_on_s")
        #expect(onDuration.line != nil)
        let zeroCycle = try error(loading: try edited("short_drx_cycle_s: {value: 0.02,", "short_drx_cycle_s: {value: 0,"))
        #expect(zeroCycle.problem == .invalidValue)
        #expect(zeroCycle.keyPath == "radio.lte.short_drx_cycle_s.value")
        let scores = try error(loading: try edited("score50_mw: {value: 500,", "score50_mw: {value: 40,"))
        #expect(scores.keyPath == "score.score50_mw")
    }

    @Test func malformedYAMLGivesLineAndColumn() throws {
        let yaml = try edited("cpu:\n", "cpu: [\n")
        let error = try error(loading: yaml)
        #expect(error.problem == .syntax)
        #expect(error.line != nil)
        #expect(error.description.hasPrefix("models/broken.yaml:"))
        let duplicate = try self.error(loading: valid + "name: again\n")
        #expect(duplicate.problem == .syntax)
        #expect(duplicate.message.contains(#""name""#))
        let empty = try self.error(loading: "# nothing here\n")
        #expect(empty.problem == .syntax)
        let list = try self.error(loading: "- name: x\n")
        #expect(list.problem == .wrongType)
    }

    @Test func controlCharactersInKeysAreEscapedInMessages() throws {
        let error = try error(loading: valid + "\"bad\\e[31m\": 1\n")
        #expect(error.problem == .unknownKey)
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B })
        #expect(error.description.contains("bad\\u001B[31m"))
    }

    @Test func modelsBuiltInCodeAreValidatedToo() throws {
        var model = try ModelCatalog.parse(yaml: valid, file: file)
        model.cpu.activeW = Sourced(-1, source: "typo")
        #expect(throws: ModelError.self) { try model.validate(file: "code") }
        do {
            try model.validate(file: "code")
        } catch {
            #expect(error.problem == .negativeValue)
            #expect(error.keyPath == "cpu.active_w.value")
            #expect(error.description == "code: cpu.active_w.value: must not be negative, found -1.0")
        }
        model.cpu.activeW = Sourced(1, source: " ")
        do {
            try model.validate(file: "code")
            Issue.record("an empty source passed")
        } catch {
            #expect(error.problem == .missingSource)
            #expect(error.keyPath == "cpu.active_w.source")
        }
    }

    @Test func filesAreNamedInErrors() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }

        let typo = folder.appendingPathComponent("typo.yaml")
        try valid.replacingOccurrences(of: "wakeup_j:", with: "wakeup_joules:").write(to: typo, atomically: true, encoding: .utf8)
        do {
            _ = try ModelCatalog.load(nameOrPath: typo.path)
            Issue.record("loaded a file with an unknown key")
        } catch {
            #expect(error.file == typo.path)
            #expect(error.description.hasPrefix(typo.path + ":"))
            #expect(error.keyPath == "cpu.wakeup_joules")
        }

        let missing = folder.appendingPathComponent("missing.yaml").path
        do {
            _ = try ModelCatalog.load(nameOrPath: missing)
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.problem == .unreadable)
            #expect(error.description.hasPrefix(missing + ": cannot read the file"))
        }

        let binary = folder.appendingPathComponent("binary.yaml")
        try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: binary)
        do {
            _ = try ModelCatalog.load(path: binary.path)
            Issue.record("loaded a file that is not UTF-8")
        } catch {
            #expect(error.problem == .unreadable)
        }

        do {
            _ = try ModelCatalog.load(path: folder.path)
            Issue.record("loaded a directory")
        } catch {
            #expect(error.problem == .unreadable)
        }

        do {
            _ = try ModelCatalog.load(nameOrPath: "no-such-model")
            Issue.record("loaded an unknown name")
        } catch {
            #expect(error.problem == .unknownModel)
            #expect(error.description.contains("iphone-lte"))
        }
    }
}
