import DrainImport

/// `drain-bench ingest FILE [--repeat N]`: reads a Drain trace with `DrainTraceImporter`
/// and prints the median rate in events and megabytes per second (make a large trace with
/// `scripts/make-large-trace`).
enum IngestBenchmark {
    static func run(_ arguments: [String]) {
        guard let path = arguments.first, !path.hasPrefix("--") else {
            print("usage: drain-bench ingest FILE [--repeat N]")
            exit(64)
        }
        let repeats = option("--repeat", in: arguments).flatMap(Int.init) ?? 5
        var status = stat()
        guard stat(path, &status) == 0 else {
            print("\(path): cannot read")
            exit(66)
        }
        let bytes = Int(status.st_size)

        let events: Int
        do {
            events = try DrainTraceImporter.read(path: path).timeline.count
        } catch {
            print(error)
            exit(error.exitStatus)
        }
        print("\(path): \(events) events, \(bytes) bytes (\(bytes / max(1, events)) bytes per event)")

        var checksum = 0
        let rate = Measurement(name: "ingest", items: events, unit: "events").run(repeats: repeats) {
            // A failure here would have failed the first read above.
            checksum &+= (try? DrainTraceImporter.read(path: path).timeline.count) ?? 0
        }
        let megabytesPerSecond = rate * Double(bytes) / Double(max(1, events)) / 1e6
        print("ingest: \(Int(megabytesPerSecond.rounded())) MB/s")
        if checksum == 0 && events > 0 { print("(no events were read)") }
    }
}

extension ImportError {
    /// The exit status `drain analyze` uses for this error.
    fileprivate var exitStatus: Int32 {
        if case .unreadable = self { return 66 }
        return 65
    }
}
