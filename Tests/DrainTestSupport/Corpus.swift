import Foundation

/// Paths of the shared corpus of real captures and traces (read in place, never copied).
public enum Corpus {
    /// `../shared/corpus` beside the repository, found from this source file's location.
    public static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // DrainTestSupport
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // repository
            .deletingLastPathComponent()
            .appendingPathComponent("shared/corpus")
    }

    /// Every file of one corpus folder (`pcap`, `strace`, `metrickit`, `chrome-trace`),
    /// sorted by name; README and MANIFEST files are left out.
    public static func files(in folder: String) -> [URL] {
        let directory = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted()
            .filter { !$0.hasPrefix("README") && !$0.hasPrefix("MANIFEST") }
            .map { directory.appendingPathComponent($0) }
    }
}

/// The repository's root folder, for `models/` and `scripts/`.
public enum Repository {
    public static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}

/// A fresh temporary directory, removed by the caller when done.
public func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("drain-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
