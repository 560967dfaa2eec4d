import DrainGate
import DrainImport
import DrainModel
import DrainReport
import DrainRules
import Foundation

/// One fuzz harness: feeds libFuzzer's input to one parser through the public API the
/// command line uses. A thrown error is a correct answer to bad input; only a crash, a
/// sanitizer report, a hang or runaway memory is a finding.
enum Harness: String, CaseIterable {
    case packet, capture, drainTrace = "drain-trace", strace, chrome, metrickit, gzip, model, rules, budget, report

    /// What the harness feeds, for `drain-fuzz` without a harness and `scripts/fuzz --help`.
    var summary: String {
        switch self {
        case .packet: "one frame list decoded per link type (first byte picks the link type), wrapped in a pcap file"
        case .capture: "a whole pcap or pcapng file through libpcap and the capture importer"
        case .drainTrace: "Drain trace lines (JSON Lines)"
        case .strace: "strace output lines"
        case .chrome: "Chrome trace JSON"
        case .metrickit: "MetricKit JSON payloads"
        case .gzip: "any file as the command line reads it: format detection, then gzip decompression when it starts 1F 8B"
        case .model: "device model YAML (ModelCatalog.parse)"
        case .rules: "rule configuration YAML (RuleConfiguration.parse)"
        case .budget: "gate budget YAML (Budget.parse)"
        case .report: "report JSON (Report.decode, what Report.load reads)"
        }
    }

    func run(_ bytes: [UInt8]) {
        let path = "fuzz-input"
        switch self {
        case .packet:
            guard let file = PacketFrames.pcap(from: bytes) else { return }
            attempt { _ = try CaptureImporter.read(path: ScratchFile.shared.write(file), inputIndex: 0) }
        case .capture:
            attempt { _ = try CaptureImporter.read(path: ScratchFile.shared.write(bytes), inputIndex: 0) }
        case .drainTrace:
            attempt { _ = try DrainTraceImporter.read(bytes: bytes, path: path) }
        case .strace:
            attempt { _ = try StraceImporter.read(bytes: bytes, path: path) }
        case .chrome:
            attempt { _ = try ChromeTraceImporter.read(bytes: bytes, path: path) }
        case .metrickit:
            attempt { _ = try MetricKitImporter.read(bytes: bytes, path: path) }
        case .gzip:
            attempt { _ = try Importers.read(path: ScratchFile.shared.write(bytes), inputIndex: 0) }
        case .model:
            // The loaders turn bytes that are not UTF-8 away before parsing; so does the harness.
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            attempt { _ = try ModelCatalog.parse(yaml: text, file: path) }
        case .rules:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            attempt { _ = try RuleConfiguration.parse(text, path: path) }
        case .budget:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            attempt { _ = try Budget.parse(text, path: path) }
        case .report:
            attempt { _ = try Report.decode(Data(bytes), path: path) }
        }
    }

    /// Runs one parse. Its error is the expected answer to most inputs and is dropped, unless
    /// `DRAIN_FUZZ_SHOW_ERRORS` is set: then it is printed, to see what an input does when
    /// run alone (`drain-fuzz FILE`).
    private func attempt(_ parse: () throws -> Void) {
        do {
            try parse()
        } catch {
            if Self.showErrors { print("drain-fuzz: \(error)") }
        }
    }

    private static let showErrors = ProcessInfo.processInfo.environment["DRAIN_FUZZ_SHOW_ERRORS"] != nil
}
