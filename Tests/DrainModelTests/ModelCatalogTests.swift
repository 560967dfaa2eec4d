import DrainTestSupport
import Foundation
import Testing
@testable import DrainModel

/// The built-in models, their generated Swift copy, and the catalog texts.
struct ModelCatalogTests {
    static let modelFiles: [URL] = {
        let folder = Repository.root.appendingPathComponent("models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    @Test func builtinModelsAreInSyncWithTheModelsFolder() throws {
        #expect(!Self.modelFiles.isEmpty)
        let stems = Self.modelFiles.map { $0.deletingPathExtension().lastPathComponent }
        #expect(ModelCatalog.builtinNames == stems, "run scripts/gen-builtin-models")
        for file in Self.modelFiles {
            let name = file.deletingPathExtension().lastPathComponent
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(ModelCatalog.builtinYAML(named: name) == text, "run scripts/gen-builtin-models: \(name) differs")
        }
    }

    @Test(arguments: ModelCatalog.builtinNames)
    func everyBuiltinModelLoadsAndValidates(name: String) throws {
        let model = try ModelCatalog.load(nameOrPath: name)
        #expect(model.name == name)
        #expect(!model.title.isEmpty)
        try model.validate(file: name)
        // The models price cellular traffic with the parameters they declare.
        switch model.radio.cellular {
        case .lte: #expect(model.radio.lte != nil)
        case .umts: #expect(model.radio.umts != nil)
        case .nrNsa: #expect(model.radio.lte != nil && model.radio.nr != nil)
        }
    }

    @Test(arguments: ModelCatalog.builtinNames)
    func builtinModelFileLoadsByPathToo(name: String) throws {
        let path = Repository.root.appendingPathComponent("models/\(name).yaml").path
        #expect(try ModelCatalog.load(nameOrPath: path) == ModelCatalog.load(builtin: name))
    }

    @Test func defaultModelAndLinks() throws {
        #expect(ModelCatalog.builtinNames.contains(ModelCatalog.defaultName))
        #expect(try ModelCatalog.load(builtin: "iphone-lte").radio.defaultLink == .cellular)
        #expect(try ModelCatalog.load(builtin: "iphone-wifi").radio.defaultLink == .wifi)
        #expect(try ModelCatalog.load(builtin: "android-pixel-lte").radio.cellular == .lte)
        let nsa = try ModelCatalog.load(builtin: "iphone-5g-nsa")
        #expect(nsa.radio.cellular == .nrNsa)
        #expect(nsa.radio.defaultLink == .cellular)
        #expect(try ModelCatalog.load(builtin: "iphone-wifi").radio.wifi.psm != nil)
    }

    @Test func showListsTheNRAndPowerSaveSections() throws {
        let lines = ModelCatalog.showText(try ModelCatalog.load(builtin: "iphone-5g-nsa")).split(separator: "\n").map(String.init)
        #expect(lines.contains("radio.nr"))
        #expect(lines.contains("radio.wifi.psm"))
        #expect(lines.contains { $0.hasPrefix("  cellular") && $0.contains("nr_nsa") })
        #expect(lines.contains { $0.contains("beacon_interval_s") && $0.contains("0.1024 s") })
    }

    @Test func estimatesSayHowTheyWereDerived() throws {
        for name in ModelCatalog.builtinNames {
            for field in try ModelCatalog.load(builtin: name).fields {
                guard case .number(let number) = field.value, number.source.hasPrefix("estimate") else { continue }
                // "estimate:" followed by a basis, not a bare label.
                #expect(number.source.count > "estimate: ".count + 20, "\(name) \(field.path)")
            }
        }
    }

    @Test func listNamesEveryModelWithItsTitleAndTheDefault() throws {
        let text = try ModelCatalog.listText()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == ModelCatalog.builtinNames.count)
        for (line, name) in zip(lines, ModelCatalog.builtinNames) {
            let model = try ModelCatalog.load(builtin: name)
            #expect(line.hasPrefix(name))
            #expect(line.hasSuffix(model.title))
            #expect(line.contains("(default)") == (name == ModelCatalog.defaultName))
        }
    }

    @Test func showListsEveryNumberWithUnitAndSourceGroupedBySection() throws {
        let model = try ModelCatalog.load(builtin: "iphone-lte")
        let text = ModelCatalog.showText(model)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "iphone-lte: \(model.title)")
        for section in ["cpu", "radio", "radio.lte", "radio.umts", "radio.wifi", "disk", "display", "location", "sensors", "memory", "battery", "score"] {
            #expect(lines.contains(section), "section \(section)")
        }
        let numbers = model.fields.compactMap { field -> (String, Sourced)? in
            guard case .number(let number) = field.value, let key = field.path.last else { return nil }
            return (key, number)
        }
        // As many numbers as the file has `{value: …}` mappings.
        let yaml = try #require(ModelCatalog.builtinYAML(named: "iphone-lte"))
        #expect(numbers.count == yaml.components(separatedBy: "{value:").count - 1)
        for (key, number) in numbers {
            #expect(lines.contains { $0.hasPrefix("  \(key) ") && $0.hasSuffix(number.source) }, "\(key)")
        }
        // Units from the key suffixes, numbers in shortest form.
        let row = { (key: String) in lines.first { $0.hasPrefix("  \(key) ") } ?? "" }
        #expect(row("promotion_s").contains(" 0.26 s "))
        #expect(row("promotion_w").contains(" 1.21 W "))
        #expect(row("alpha_up_mw_per_mbps").contains(" 438.39 mW/Mbps "))
        #expect(row("per_mb_j").contains(" 0.005 J/MB "))
        #expect(row("per_fsync_j").contains(" 0.002 J/fsync "))
        #expect(row("limit_bytes").contains(" 2147483648 bytes "))
        #expect(row("capacity_wh").contains(" 12.41 Wh "))
        #expect(row("score90_mw").contains(" 50 mW "))
        #expect(row("default_link").hasSuffix(" cellular"))
    }

    @Test func showEscapesControlCharactersAndListsThresholds() throws {
        var model = try ModelCatalog.load(builtin: "iphone-lte")
        model.title = "evil \u{1B}[31mred"
        model.thresholds = ["NET-PERIODIC": ["min_interval_s": Sourced(2, source: "team budget\u{7}")]]
        let text = ModelCatalog.showText(model)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(text.contains("evil \\u001B[31mred"))
        #expect(text.contains("\nthresholds.NET-PERIODIC\n"))
        let thresholdRow = text.split(separator: "\n").first { $0.hasPrefix("  min_interval_s ") }
        #expect(thresholdRow?.contains(" 2 s ") == true)
        #expect(thresholdRow?.hasSuffix("team budget\\u0007") == true)
    }

    @Test func unitsComeFromKeySuffixes() {
        #expect(ModelCatalog.unit(ofKey: "tail_s") == "s")
        #expect(ModelCatalog.unit(ofKey: "dch_w") == "W")
        #expect(ModelCatalog.unit(ofKey: "wakeup_j") == "J")
        #expect(ModelCatalog.unit(ofKey: "per_op_j") == "J/op")
        #expect(ModelCatalog.unit(ofKey: "per_frame_j") == "J/frame")
        #expect(ModelCatalog.unit(ofKey: "fach_up_bytes") == "bytes")
        #expect(ModelCatalog.unit(ofKey: "alpha_down_mw_per_mbps") == "mW/Mbps")
        #expect(ModelCatalog.unit(ofKey: "ratio") == "")
        #expect(ModelCatalog.unit(ofKey: "max_count") == "")
    }
}
