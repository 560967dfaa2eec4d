import CFuzzerDriver
import Foundation

// One executable serves every harness, so the instrumented build links once; the
// environment picks the harness, as libFuzzer passes its own arguments through the command
// line (and re-runs this program with the same environment for -fork and -minimize_crash).
// SwiftPM names the entry point of an executable itself, so libFuzzer's main() cannot be
// used; this main hands over to libFuzzer's driver instead.

/// The harness the callback runs: a C function pointer cannot capture it. Declared before
/// the code that sets it, as top-level code runs in order, initialisers included.
nonisolated(unsafe) var selected: Harness = .packet

let name = ProcessInfo.processInfo.environment["DRAIN_FUZZ_TARGET"] ?? ""
guard let harness = Harness(rawValue: name) else {
    var usage = "drain-fuzz: set DRAIN_FUZZ_TARGET to one of:\n"
    for harness in Harness.allCases { usage += "  \(harness.rawValue): \(harness.summary)\n" }
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
selected = harness

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
exit(status)
