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
}
