import DrainModel
import DrainReport
import DrainTrace

/// DISK-REWRITE: the same file written whole again and again.
///
/// Per path (writes without a path cannot be matched to a file), a rewrite is
/// - a write of at least `whole_share` of the file's size after the write (`file_size`, when
///   known and positive), or
/// - the first write after a truncate that empties the file (`file_size` 0 or unknown); the
///   writes that follow it, up to the next truncate or whole write, belong to the same
///   rewrite.
/// The trace cannot tell a file's creation from a rewrite, so every whole write counts. A
/// file with at least `min_rewrites` rewrites is a warning, one finding per file. O(n + k log k)
/// for k files.
public struct DiskRewriteRule: Rule {
    static let wholeShare = RuleParameter("whole_share", default: 0.9, unit: "fraction of the file size", "a write at least this share of the file's size rewrites the file")
    static let minRewrites = RuleParameter("min_rewrites", default: 3, unit: "rewrites", "rewrites of one file that make a finding")

    public static let description = RuleDescription(
        id: "DISK-REWRITE",
        title: "File rewritten whole",
        area: .disk,
        severity: .warning,
        guidance: """
            Rewriting a whole file to change part of it costs a write of every byte each time. \
            Write only the portions that changed, and keep large data that changes piecemeal in \
            a store made for random access, such as SQLite or Core Data.
            """,
        source: """
            FILE "write only the portions of files that changed; use SQLite or Core Data for large \
            random-access data" (App Programming Guide for iOS, Improve Your File Management)
            """,
        fix: "Update the changed records in place (SQLite, Core Data, or writes at an offset) instead of writing the whole file again.",
        parameters: [wholeShare, minRewrites],
        triggeringExamples: [
            Scenario("a 2 MB settings file saved whole five times", expect: .warning) {
                var run = TimelineBuilder()
                for save in 0..<5 {
                    run.disk(Double(save) * 10, .write, bytes: 2_000_000, path: "/data/Library/settings.json", fileSize: 2_000_000)
                }
                return run.build(end: 60)
            },
            Scenario("truncate then write, three times", expect: .warning) {
                var run = TimelineBuilder()
                for save in 0..<3 {
                    let time = Double(save) * 5
                    run.disk(time, .truncate, path: "/data/state.json", fileSize: 0)
                    run.disk(time + 0.01, .write, bytes: 30_000, path: "/data/state.json")
                    run.disk(time + 0.02, .write, bytes: 30_000, path: "/data/state.json")
                }
                return run.build(end: 20)
            },
        ],
        nonTriggeringExamples: [
            Scenario("appends to a growing log") {
                var run = TimelineBuilder()
                for line in 1...20 {
                    run.disk(Double(line), .write, bytes: 1000, path: "/data/app.log", fileSize: Int64(line) * 1000 + 50_000)
                }
                return run.build(end: 30)
            },
            Scenario("a file saved whole twice") {
                var run = TimelineBuilder()
                run.disk(1, .write, bytes: 500_000, path: "/data/doc.bin", fileSize: 500_000)
                run.disk(9, .write, bytes: 500_000, path: "/data/doc.bin", fileSize: 500_000)
                return run.build(end: 10)
            },
            Scenario("only reads") {
                var run = TimelineBuilder()
                run.disk(1, .read, bytes: 500_000, path: "/data/doc.bin", fileSize: 500_000)
                return run.build(end: 10)
            },
            Scenario("no disk events") {
                var run = TimelineBuilder()
                run.cpu(1, duration: 0.1)
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let share = context[Self.wholeShare]
        var files: [StringID: FileRewrites] = [:]
        var diskEvents = 0
        for row in 0..<timeline.count where timeline.kind[row] == .disk {
            diskEvents += 1
            let path = timeline.label[row]
            guard path != 0 else { continue }
            switch DiskOperation(rawValue: timeline.code[row]) {
            case .truncate:
                let size = timeline.amount2[row]
                if size <= 0 { files[path, default: FileRewrites()].truncate(row, context) }
            case .write:
                let bytes = timeline.amount[row], size = timeline.amount2[row]
                guard bytes > 0 else { continue }
                let whole = size > 0 && Double(bytes) >= share * Double(size)
                files[path, default: FileRewrites()].write(row, whole: whole, context)
            case .fsync, .read, nil:
                continue
            }
        }
        guard diskEvents > 0 else { return .notApplicable("the run records no disk events") }
        let minimum = max(1, context.count(Self.minRewrites))
        let flagged = files.filter { $0.value.rewrites >= minimum }
            .map { (path: timeline.name($0.key, or: "(unnamed file)"), tally: $0.value) }
            .sorted { $0.tally.first != $1.tally.first ? $0.tally.first < $1.tally.first : $0.path < $1.path }
        return .findings(flagged.map { finding(path: $0.path, $0.tally, context) })
    }

    private func finding(path: String, _ tally: FileRewrites, _ context: RuleContext) -> Finding {
        let evidence = [
            Evidence("file", text: path),
            Evidence("rewrites", Double(tally.rewrites), unit: "rewrites"),
            Evidence("whole writes", Double(tally.wholeWrites), unit: "rewrites"),
            Evidence("truncate rewrites", Double(tally.rewrites - tally.wholeWrites), unit: "rewrites"),
            Evidence("bytes rewritten", tally.bytes, unit: "B"),
            Evidence("average rewrite", tally.bytes / Double(tally.rewrites), unit: "B"),
            Evidence("threshold", context[Self.minRewrites], unit: "rewrites"),
        ]
        return Self.description.finding(
            .warning, subject: path,
            message: "\(path) was rewritten whole \(tally.rewrites) times (\(ByteFormat.string(tally.bytes)) written).",
            evidence: evidence, energyJ: tally.energy, timeRanges: [TimeRange(from: tally.first, to: tally.last)])
    }

    /// The rewrites of one file.
    private struct FileRewrites {
        var rewrites = 0
        var wholeWrites = 0
        var bytes = 0.0
        var energy = 0.0
        var first: Nanoseconds = .max
        var last: Nanoseconds = .min
        /// The truncate that emptied the file, when no write has followed it yet: the next
        /// write starts a rewrite, which the truncate is part of.
        private var truncate: (time: Nanoseconds, energy: Double)?
        /// The writes since a truncate-rewrite began belong to it.
        private var rewriting = false

        mutating func truncate(_ row: Int, _ context: RuleContext) {
            truncate = (context.timeline.time[row], context.priced.eventEnergy[row])
            rewriting = false
        }

        mutating func write(_ row: Int, whole: Bool, _ context: RuleContext) {
            if let truncate {
                self.truncate = nil
                rewriting = true
                rewrites += 1
                energy += truncate.energy
                first = min(first, truncate.time)
            } else if whole {
                rewriting = false
                rewrites += 1
                wholeWrites += 1
            } else if !rewriting {
                return
            }
            bytes += Double(context.timeline.amount[row])
            energy += context.priced.eventEnergy[row]
            first = min(first, context.timeline.time[row])
            last = max(last, context.timeline.time[row])
        }
    }
}
