import DrainImport
import DrainTrace
import Foundation
import Testing

/// The instrumented example program produces a real trace: a timer, loopback network
/// calls, state-file writes with fsync, a memory warning and lifecycle changes.
@Suite("drain-probe-example")
struct ExampleProgramTests {
    @Test("a run of 1.5 s writes a trace that imports cleanly and holds what the program did")
    func trace() throws {
        let fixture = try ProbeFixture(name: "example.jsonl")
        defer { fixture.remove() }
        let result = try ExampleProgram.run(["--out", fixture.path, "--seconds", "1.5"])
        #expect(result.status == 0, "\(result.standardError)")

        let input = try fixture.read()
        // Nothing unknown, nothing cut off. (An `out-of-order` warning is possible, though
        // rare: a sync's slice is written when it ends, and if a busy machine stalls its
        // thread for longer than the sampling interval, newer lines reach the file first.)
        #expect(input.diagnosticCodes.allSatisfy { $0 == "out-of-order" })
        #expect(input.info.process == "drain-probe-example")
        #expect(input.info.deviceHint == "iphone-lte")

        // A repeating timer (150 ms in a 1.5 s run), and the wake-ups it caused.
        let timer = try #require(input.events(.timer).first)
        #expect(timer.duration == 150_000_000)
        #expect(timer.code == 1)
        #expect(input.events(.wakeup).count >= 3)

        // Each sync: a request and a response over one connection, then the state file
        // written and flushed.
        let net = input.events(.net)
        let sent = net.filter { $0.code == NetDirection.tx.rawValue }
        let received = net.filter { $0.code == NetDirection.rx.rawValue }
        #expect(sent.count >= 3)
        #expect(sent.count == received.count)
        #expect(received.allSatisfy { $0.amount > 1024 })
        #expect(net.allSatisfy { input.text($0.label) == "127.0.0.1" })
        let disk = input.events(.disk)
        let writes = disk.filter { $0.code == DiskOperation.write.rawValue }
        #expect(writes.count >= 3)
        #expect(disk.filter { $0.code == DiskOperation.fsync.rawValue }.count == writes.count)
        #expect(writes.allSatisfy { input.text($0.label).hasSuffix("/state.json") && $0.amount == $0.amount2 })

        // The memory warning frees a 32 MiB cache: sampled just before and just after it.
        #expect(input.events(.memoryWarning).count == 1)
        let timeline = input.timeline
        // (The background sampler may add a sample of its own between the two, so the
        // sample after the warning is one of the next two.)
        let warning = try #require((0..<timeline.count).first { timeline.kind[$0] == .memoryWarning })
        let before = try #require((0..<warning).last { timeline.kind[$0] == .memory })
        let after = (warning..<timeline.count).filter { timeline.kind[$0] == .memory }.prefix(2)
        // AddressSanitizer holds freed memory in quarantine (to catch its use after free), so
        // under `scripts/sanitize address` the footprint does not drop when the cache goes.
        if ProcessInfo.processInfo.environment["DRAIN_TEST_SANITIZER"] != "address" {
            #expect(after.contains { timeline.amount[before] - timeline.amount[$0] >= 16 << 20 })
        }
        #expect(input.events(.memory).count >= 5)

        // Launched, then to the background with a background task, then suspended; the
        // lifecycle changes happen on the main thread, the timer fires on another.
        let lifecycle = input.events(.lifecycle)
        #expect(lifecycle.map(\.code) == [LifecycleState.active, .inactive, .background, .suspended].map(\.rawValue))
        #expect(lifecycle.allSatisfy { input.text($0.thread) == "main" })
        let timerThreads = Set(input.events(.wakeup).map { input.text($0.thread) })
        #expect(!timerThreads.isEmpty && !timerThreads.contains("main") && !timerThreads.contains(""))
        #expect(input.events(.backgroundTask).map(\.code) == [Action.start.rawValue, Action.stop.rawValue])
        #expect(input.events(.resource).map(\.code) == [Action.start.rawValue, Action.stop.rawValue])
        #expect(input.events(.cpu).contains { input.text($0.label) == "launch" })
    }

    @Test("bad usage exits 64, an unwritable trace 73")
    func failures() throws {
        let usage = try ExampleProgram.run(["--seconds", "2"])
        #expect(usage.status == 64)
        #expect(usage.standardError.hasPrefix("usage: drain-probe-example --out FILE"))
        let unwritable = try ExampleProgram.run(["--out", "/nonexistent-drain-folder/trace.jsonl"])
        #expect(unwritable.status == 73)
        #expect(unwritable.standardError.contains("cannot open trace /nonexistent-drain-folder/trace.jsonl"))
    }
}
