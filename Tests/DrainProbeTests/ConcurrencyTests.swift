import DrainImport
import DrainProbe
import DrainTrace
import Foundation
import Testing

/// Several threads writing at once through one probe: every event arrives, whole, with its
/// thread, and each thread's events keep their program order.
@Suite("DrainProbe concurrent writers")
struct ConcurrencyTests {
    @Test("four threads, a small buffer: every event is present, per-thread times never go back")
    func fourThreads() throws {
        let threads = 4
        let perThread = 2500
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        // 4 KiB fills every ~50 events, so writes to the file interleave with appends.
        let probe = try fixture.probe(bufferCapacity: 4096, memorySamplingInterval: .milliseconds(5))

        let names = ThreadNames(count: threads)
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                names.set(thread, (try? currentThreadName()) ?? "?")
                for index in 0..<perThread {
                    // `bytes` numbers the thread's events, so their order can be checked.
                    probe.net(.tx, bytes: index, host: "api.example.com", connection: "thread-\(thread)")
                    probe.measure("work") { _ = (0..<10).reduce(0, +) }
                    if index % 100 == 0 { probe.mark("checkpoint") }
                }
                done.leave()
            }.start()
        }
        done.wait()
        probe.close()
        #expect(probe.lastError == nil)

        let input = try fixture.read()
        #expect(!input.diagnosticCodes.contains { $0.hasPrefix("unknown-") })
        #expect(!input.diagnosticCodes.contains("truncated"))
        let timeline = input.timeline
        #expect(input.events(.net).count == threads * perThread)
        #expect(input.events(.cpu).count == threads * perThread)
        #expect(input.events(.mark).count == threads * perThread / 100)
        #expect(input.events(.memory).count >= 1)

        // The timeline is sorted by time (stably), so walking it in order and finding each
        // thread's numbered events in program order means each thread's times never go back
        // and none of its events is missing or repeated.
        let threadNames = names.all
        #expect(Set(threadNames).count == threads)
        var nextIndex = [String: Int]()
        var lastKind = [String: EventKind]()
        for row in 0..<timeline.count where timeline.kind[row] != .memory {
            let thread = input.text(timeline.thread[row])
            #expect(threadNames.contains(thread))
            switch timeline.kind[row] {
            case .net:
                let connection = input.text(timeline.label2[row])
                #expect(connection == "thread-\(threadNames.firstIndex(of: thread) ?? -1)")
                #expect(timeline.amount[row] == Int64(nextIndex[thread, default: 0]))
                nextIndex[thread, default: 0] += 1
            case .cpu:
                #expect(lastKind[thread] == .net || lastKind[thread] == .mark, "a slice follows its net event")
            default:
                break
            }
            lastKind[thread] = timeline.kind[row]
        }
        for thread in threadNames { #expect(nextIndex[thread] == perThread) }
    }
}

/// Each thread's name, set by that thread.
private final class ThreadNames: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String]

    init(count: Int) { names = Array(repeating: "", count: count) }

    func set(_ index: Int, _ name: String) { lock.withLock { names[index] = name } }

    var all: [String] { lock.withLock { names } }
}
