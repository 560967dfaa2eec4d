import DrainImport

/// `drain-bench ingest FILE [--repeat N]`: reads a Drain trace with `DrainTraceImporter`
/// and prints the median rate in events and megabytes per second. Make a large trace with
/// `scripts/make-large-trace --events 10000000 --out /tmp/large.jsonl` (outside the repository).
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

        // One read to count the events and to fail early on a bad file; its timeline is
        // dropped before the timed runs.
        let events: Int
        do {
            events = try DrainTraceImporter.read(path: path).timeline.count
        } catch {
            print(error)
            if case .unreadable = error { exit(66) }
            exit(65)
        }
        print("\(path): \(events) events, \(bytes) bytes (\(bytes / max(1, events)) bytes per event)")

        let rate = Measurement(name: "ingest", items: events, unit: "events").run(repeats: repeats) {
            _ = try? DrainTraceImporter.read(path: path)
        }
        let megabytesPerSecond = rate * Double(bytes) / Double(max(1, events)) / 1e6
        print("ingest: \(Int(megabytesPerSecond.rounded())) MB/s")
    }
}
