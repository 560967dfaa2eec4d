import DrainModel
import DrainReport
import DrainTrace

/// DISK-LOCATION: regenerable data written where it is backed up.
///
/// A path (a leading `/` is assumed when it has none, so `Documents/x` and `/Documents/x`
/// read alike) holds *regenerable* data when it contains `/Caches/`, `/tmp/`, `/Temporary`
/// or `.cache`, and lies in a *backed-up* location when it contains `/Documents/`, or
/// `/Library/` but not `/Library/Caches/`. Writes to paths that are both are one finding,
/// info, or a warning above `warning_bytes` in all. The names are matched as written (iOS
/// spells them with these capitals). Cache files written outside backed-up locations are
/// not judged: the trace has no signal that tells a needless disk cache from state
/// preservation. O(n + k log k) for k files.
public struct DiskLocationRule: Rule {
    static let warningBytes = RuleParameter("warning_bytes", default: 10_000_000, unit: "B", "regenerable bytes written to backed-up locations above which the finding is a warning (10 MB)")

    public static let description = RuleDescription(
        id: "DISK-LOCATION",
        title: "Regenerable data in a backed-up location",
        area: .disk,
        severity: .info,
        guidance: """
            Everything in Documents and in Library (except Library/Caches) is backed up, so \
            caches and temporary files kept there are copied to every backup and slow it down. \
            Keep data the app can download or recompute in Library/Caches or the temporary \
            directory.
            """,
        source: """
            FILE "Improve Your File Management" and "Make App Backups More Efficient" (App \
            Programming Guide for iOS)
            """,
        fix: "Move caches and temporary files to Library/Caches or the temporary directory, or exclude them from backups.",
        parameters: [warningBytes],
        triggeringExamples: [
            Scenario("thumbnails cached under Documents", expect: .info) {
                var run = TimelineBuilder()
                for image in 0..<10 {
                    run.disk(Double(image), .write, bytes: 80_000, path: "/var/mobile/App/Documents/Caches/thumb-\(image).jpg")
                }
                return run.build(end: 20)
            },
            Scenario("a 15 MB temporary download in Application Support", expect: .warning) {
                var run = TimelineBuilder()
                for chunk in 0..<15 {
                    run.disk(Double(chunk) * 0.1, .write, bytes: 1_000_000, path: "Library/Application Support/tmp/download.part")
                }
                return run.build(end: 5)
            },
        ],
        nonTriggeringExamples: [
            Scenario("caches in Library/Caches, documents in Documents") {
                var run = TimelineBuilder()
                run.disk(1, .write, bytes: 5_000_000, path: "Library/Caches/images/a.jpg")
                run.disk(2, .write, bytes: 20_000, path: "Documents/notes.txt")
                run.disk(3, .write, bytes: 40_000, path: "/tmp/upload.part")
                return run.build(end: 5)
            },
            Scenario("writes without paths") {
                var run = TimelineBuilder()
                run.disk(1, .write, bytes: 5_000_000)
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var verdicts: [StringID: Bool] = [:]
        var files: [StringID: (writes: Int, bytes: Double)] = [:]
        var rows: [Int] = []
        var bytes = 0.0
        var pathWrites = 0
        for row in 0..<timeline.count
        where timeline.kind[row] == .disk && timeline.code[row] == DiskOperation.write.rawValue && timeline.label[row] != 0 {
            pathWrites += 1
            let path = timeline.label[row]
            let misplaced = verdicts[path] ?? Self.isRegenerableInBackup(timeline.strings[path])
            verdicts[path] = misplaced
            guard misplaced else { continue }
            rows.append(row)
            let written = Double(max(0, timeline.amount[row]))
            bytes += written
            files[path, default: (0, 0)].writes += 1
            files[path, default: (0, 0)].bytes += written
        }
        guard pathWrites > 0 else { return .notApplicable("the run records no disk writes with a path") }
        guard !rows.isEmpty else { return .findings([]) }
        let limit = context[Self.warningBytes]
        let top = files.map { (path: timeline.strings[$0.key], writes: $0.value.writes, bytes: $0.value.bytes) }
            .sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.path < $1.path }
        let evidence = [
            Evidence("bytes", bytes, unit: "B"),
            Evidence("files", Double(files.count), unit: "files"),
            Evidence("writes", Double(rows.count), unit: "writes"),
            Evidence("warning above", limit, unit: "B"),
        ] + top.prefix(5).map { Evidence("path", text: "\($0.path): \(ByteFormat.string($0.bytes)) in \($0.writes) writes") }
        let first = timeline.time[rows[0]], last = timeline.time[rows[rows.count - 1]]
        return .findings([
            Self.description.finding(
                bytes > limit ? .warning : .info,
                message: "\(ByteFormat.string(bytes)) of cache or temporary data written to \(files.count) file(s) in backed-up locations (\(top[0].path) the most).",
                evidence: evidence, energyJ: rows.reduce(0) { $0 + context.priced.eventEnergy[$1] },
                timeRanges: [TimeRange(from: first, to: last)])
        ])
    }

    /// Whether `path` names regenerable data (a cache or temporary name) in a backed-up place.
    static func isRegenerableInBackup(_ path: String) -> Bool {
        let rooted = path.hasPrefix("/") ? path : "/" + path
        let regenerable = ["/Caches/", "/tmp/", "/Temporary", ".cache"].contains { rooted.contains($0) }
        let backedUp = rooted.contains("/Documents/") || (rooted.contains("/Library/") && !rooted.contains("/Library/Caches/"))
        return regenerable && backedUp
    }
}
