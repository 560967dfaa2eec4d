#if os(Linux)
import Testing

@testable import DrainRecord

@Suite struct StraceLauncherTests {
    @Test func missingStraceIsAClearErrorWithExitStatus69() {
        #expect(throws: RecordError.straceMissing) {
            try StraceLauncher.locate(path: "/nonexistent-drain-test:/also-not-here")
        }
        #expect(RecordError.straceMissing.exitCode == 69)
        #expect(RecordError.straceMissing.description.contains("strace"))
    }

    @Test func straceRunsWithTheOptionsTheImporterNeeds() {
        let arguments = StraceLauncher.arguments(strace: "/usr/bin/strace", log: "/tmp/log", command: ["sh", "-c", "true"])
        #expect(arguments == ["/usr/bin/strace", "-f", "-ttt", "-T", "-yy", "-q", "-o", "/tmp/log", "--", "sh", "-c", "true"])
    }

    @Test func captureLandsBesideTheTrace() {
        #expect(RecordOptions(command: ["x"], outputPath: "runs/a.jsonl").capturePath == "runs/a.pcap")
        #expect(RecordOptions(command: ["x"], outputPath: "trace").capturePath == "trace.pcap")
    }

    @Test func processNameIsTheProgramsFileName() {
        #expect(Recorder.processName(["/usr/bin/python3", "x.py"]) == "python3")
        #expect(Recorder.processName(["sh"]) == "sh")
        #expect(Recorder.processName(["dir/"]) == "dir/")
    }
}
#endif
