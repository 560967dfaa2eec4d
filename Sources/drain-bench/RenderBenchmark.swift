import DrainRender
import DrainReport
import Foundation

/// `drain-bench render REPORT.json [--repeat N]`: encodes a saved report as the JSON report
/// (pretty, sorted keys) with `ReportJSON` (our `SortedJSONWriter`) and, as the baseline, with
/// Foundation's `JSONEncoder` under the same options; prints the median rate of each in
/// megabytes of JSON per second and their ratio. Save a report with
/// `drain analyze CAPTURE --json report.json`.
enum RenderBenchmark {
    static func run(_ arguments: [String]) {
        guard let path = arguments.first, !path.hasPrefix("--") else {
            print("usage: drain-bench render REPORT.json [--repeat N]")
            exit(64)
        }
        let repeats = option("--repeat", in: arguments).flatMap(Int.init) ?? 9
        let report: Report
        do {
            report = try Report.load(path: path)
        } catch {
            print(error)
            exit(65)
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let ours = try? ReportJSON.encode(report, pretty: true), let theirs = try? foundation.encode(report) else {
            print("\(path): the report does not encode")
            exit(65)
        }
        let bytes = ours.utf8.count
        print("\(path): \(bytes) bytes of JSON, identical to Foundation's: \(Array(ours.utf8) == Array(theirs))")
        let writer = Measurement(name: "render SortedJSONWriter", items: bytes, unit: "bytes").run(repeats: repeats) {
            _ = try? ReportJSON.encode(report, pretty: true)
        }
        let baseline = Measurement(name: "render Foundation JSONEncoder", items: bytes, unit: "bytes").run(repeats: repeats) {
            _ = try? foundation.encode(report)
        }
        print("render: SortedJSONWriter ÷ Foundation = \(String(format: "%.2f", writer / baseline))× the rate")
    }
}
