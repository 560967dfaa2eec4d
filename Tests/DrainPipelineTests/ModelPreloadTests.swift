import DrainModel
import DrainTestSupport
import Foundation
import Testing

@testable import DrainPipeline

/// The model loaded while the inputs are imported (`ModelPreload`) must be the model, or the
/// error, that loading it afterwards gives — and an input's error must still come first.
@Suite struct ModelPreloadTests {
    @Test func thePreloadedModelOrAnotherIsWhatLoadingGives() throws {
        let preload = ModelPreload(name: "iphone-lte")
        #expect(try preload.model(named: "iphone-lte").get() == ModelCatalog.load(nameOrPath: "iphone-lte"))
        // Asked again, or for another model, after the thread was joined.
        #expect(try preload.model(named: "iphone-wifi").get() == ModelCatalog.load(nameOrPath: "iphone-wifi"))
        #expect(try preload.model(named: "iphone-lte").get().name == "iphone-lte")
        let other = ModelPreload(name: "iphone-lte")
        #expect(try other.model(named: "android-pixel-lte").get() == ModelCatalog.load(nameOrPath: "android-pixel-lte"))
    }

    @Test func aModelFileIsPreloadedWithItsErrors() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("tuned.yaml")
        try #require(ModelCatalog.builtinYAML(named: "iphone-wifi")).write(to: good, atomically: true, encoding: .utf8)
        #expect(try ModelPreload(name: good.path).model(named: good.path).get() == ModelCatalog.load(nameOrPath: good.path))
        let bad = directory.appendingPathComponent("bad.yaml")
        try "radio: [".write(to: bad, atomically: true, encoding: .utf8)
        var direct: ModelError?
        do { _ = try ModelCatalog.load(nameOrPath: bad.path) } catch { direct = error }
        let preloaded = ModelPreload(name: bad.path).model(named: bad.path)
        #expect(direct != nil)
        #expect(throws: try #require(direct)) { try preloaded.get() }
    }

    @Test func anInputErrorComesBeforeAModelError() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missingModel = directory.appendingPathComponent("missing.yaml").path
        let missingInput = directory.appendingPathComponent("missing.jsonl").path
        #expect {
            try Analysis.run(AnalysisOptions(inputs: [missingInput], model: missingModel))
        } throws: { error in
            guard case .input = error as? AnalysisError else { return false }
            return true
        }
        let trace = try writeTrace([#"{"drain_trace":1}"#, #"{"t":1,"type":"mark","name":"x"}"#], named: "ok.jsonl", in: directory)
        #expect {
            try Analysis.run(AnalysisOptions(inputs: [trace.path], model: missingModel))
        } throws: { error in
            guard case .model = error as? AnalysisError else { return false }
            return true
        }
    }

    @Test func theEarlyPreloadGuessesTheModelFromTheCommandLine() {
        func guess(_ arguments: [String]) -> String? { ModelPreload.modelName(in: arguments[...]) }
        #expect(guess(["run.pcap"]) == nil)
        #expect(guess(["run.pcap", "--model", "iphone-wifi"]) == "iphone-wifi")
        #expect(guess(["--model=pixel.yaml", "run.pcap"]) == "pixel.yaml")
        #expect(guess(["--model", "a", "run.pcap", "--model", "b"]) == "b")
        #expect(guess(["run.pcap", "--model"]) == nil)
        #expect(guess(["run.pcap", "--", "--model", "iphone-wifi"]) == nil)
    }

    @Test func anAnalysisTakesTheEarlyPreloadOnlyForItsModelAndOnlyOnce() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A model file of this test's own, so that no other test's analysis asks for it.
        let file = directory.appendingPathComponent("early.yaml")
        try #require(ModelCatalog.builtinYAML(named: "iphone-wifi")).write(to: file, atomically: true, encoding: .utf8)
        func takesOne(_ name: String) -> Bool {
            guard let preload = ModelPreload.takeEarly(named: name) else { return false }
            preload.finish()
            return true
        }
        ModelPreload.startEarly(arguments: ["analyze", "run.pcap", "--model", file.path])
        // An analysis with another model leaves it; one with its model takes it, once.
        #expect(!takesOne(file.path + ".other"))
        let early = try #require(ModelPreload.takeEarly(named: file.path))
        #expect(!takesOne(file.path))
        #expect(try early.model(named: file.path).get() == ModelCatalog.load(nameOrPath: file.path))
        let fresh = ModelPreload.starting(name: file.path)
        #expect(fresh !== early)
        #expect(try fresh.model(named: file.path).get() == ModelCatalog.load(nameOrPath: file.path))

        // Commands that analyse nothing start no preload.
        ModelPreload.startEarly(arguments: ["models", "show", "--model", file.path])
        #expect(!takesOne(file.path))
        ModelPreload.startEarly(arguments: ["gate", "run.pcap", "--model=\(file.path)"])
        #expect(takesOne(file.path))
        #expect(!takesOne(file.path))
    }
}
