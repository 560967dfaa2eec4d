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

/// What a run of `drain` under resource limits did: its exit status, what it wrote to
/// standard error, and how long it took.
public struct LimitedCommandResult: Sendable {
    public var status: Int32
    public var standardError: String
    /// Wall-clock seconds from start to exit.
    public var seconds: Double
}

/// A resource limit for a child process, in bytes (`prlimit(1)`).
public enum ResourceLimit: Sendable {
    /// `RLIMIT_DATA`: heap and private writable mappings, counted when allocated, touched or
    /// not. An allocation beyond it fails and the Swift runtime stops the process with a
    /// signal, so an exit with drain's own status proves it stayed within the limit.
    case data(Int)
    /// `RLIMIT_FSIZE`: a write past this size fails with `EFBIG`, as on a full quota.
    case fileSize(Int)

    var option: String {
        switch self {
        case let .data(bytes): "--data=\(bytes)"
        case let .fileSize(bytes): "--fsize=\(bytes)"
        }
    }
}

extension DrainCommand {
    /// Runs `drain ARGUMENTS…` (standard output discarded; give absolute paths) under
    /// `limits`, set by `prlimit` before it `exec`s drain. `scratch` holds what drain writes to
    /// standard error meanwhile.
    ///
    /// A child's peak RSS cannot be measured instead: Linux carries the parent's peak into a
    /// child spawned with a shared address space, so a data limit is the bound that holds.
    public static func runLimited(_ arguments: [String], limits: [ResourceLimit], scratch directory: URL) throws -> LimitedCommandResult {
        let errorFile = directory.appendingPathComponent("limited-\(UUID().uuidString).stderr")
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = limits.map(\.option) + ["--", executable.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        // The backtracer would otherwise stop to symbolicate a crash under a limit.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardError = errorHandle
        let started = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        try errorHandle.close()
        let killed = process.terminationReason == .uncaughtSignal
        return LimitedCommandResult(
            status: killed ? 128 + process.terminationStatus : process.terminationStatus,
            standardError: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "", seconds: seconds)
    }
}
