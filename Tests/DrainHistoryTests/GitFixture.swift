import DrainGate
import Foundation

/// A git repository in a temporary folder, with commits made on demand.
struct GitFixture {
    let folder: URL
    var git: GitWorkTree { GitWorkTree(directory: folder.path) }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("drain-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run(["init", "-q", "-b", "main"])
    }

    /// A new empty commit on the current branch; returns its id.
    @discardableResult
    func commit(_ message: String) throws -> String {
        try run(["commit", "-q", "--allow-empty", "-m", message])
        return try run(["rev-parse", "HEAD"])
    }

    func checkout(newBranch: String) throws {
        try run(["checkout", "-q", "-b", newBranch])
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path, "-c", "user.name=Drain Test", "-c", "user.email=test@example.invalid"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestStoreError("git \(arguments.joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
