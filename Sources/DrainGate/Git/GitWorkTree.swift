import Foundation

/// Runs `git` in a work tree and returns what it printed: how the gate and the run history
/// learn the commit, branch, parents, merge base and remote of the runs they judge or keep.
public struct GitWorkTree: Sendable {
    public var directory: String

    public init(directory: String = FileManager.default.currentDirectoryPath) {
        self.directory = directory
    }

    /// The trimmed standard output of `git -C DIRECTORY ARGUMENTS`, or `nil` when git is
    /// missing, fails, or prints nothing. Its standard error is discarded.
    public func output(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The lines of `output(arguments)`; empty when it failed.
    public func lines(_ arguments: [String]) -> [String] {
        output(arguments)?.split(separator: "\n").map(String.init) ?? []
    }
}
