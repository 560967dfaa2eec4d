import Foundation

/// Runs the `drain` executable built beside the test bundle and captures what it prints.
public struct CommandResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

public enum DrainCommand {
    /// The `drain` binary in the build products folder of the running tests.
    public static var executable: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // Inside a bundle (…/Foo.xctest/Contents/MacOS/Foo on Darwin) walk up to the products folder.
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent("drain")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return testBinary.deletingLastPathComponent().appendingPathComponent("drain")
    }

    /// Runs `drain ARGUMENTS…` in `directory` and waits for it; `environment` adds to (or,
    /// with a nil value, removes from) the test's own environment.
    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the process runs so a large report cannot fill a pipe and block it.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}

/// Writes a Drain trace from JSON lines (header first) into `directory/name`.
@discardableResult
public func writeTrace(_ lines: [String], named name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    return url
}
