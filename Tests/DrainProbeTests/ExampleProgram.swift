import DrainTestSupport
import Foundation

/// The `drain-probe-example` executable built beside the test bundle.
enum ExampleProgram {
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // Inside a bundle (…/Foo.xctest/Contents/MacOS/Foo on Darwin) walk up to the products folder.
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent("drain-probe-example")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return testBinary.deletingLastPathComponent().appendingPathComponent("drain-probe-example")
    }

    /// Runs the example with `arguments` and waits for it; its exit status and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errorData, as: UTF8.self))
    }
}
