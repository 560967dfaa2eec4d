import DrainImport
import DrainProbe
import DrainTrace
import Foundation
import Testing

/// Each thread stages its lines in a buffer of its own; merges put them in the file in time
/// order across threads. Only events stamped with the clock are used here: a slice that
/// began before a merge's cut-off is allowed to land out of order (docs/probe.md).
@Suite("DrainProbe cross-thread order")
struct CrossThreadOrderTests {
    @Test("threads filling small buffers while another flushes: the file's times never go back")
    func fileInTimeOrder() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        // 4 KiB holds about 60 of these lines, so each thread's buffer fills and merges often.
        let probe = try fixture.probe(bufferCapacity: 4096, memorySamplingInterval: .milliseconds(2))
        let threads = 3
        let perThread = 4000
        let stop = Flag()
        let flusher = Thread {
            while !stop.isSet {
                probe.flush()
                usleep(200)
            }
        }
        flusher.start()
        runThreads(threads) { thread in
            for index in 0..<perThread {
                probe.net(.tx, bytes: index, connection: "thread-\(thread)")
                if index % 7 == 0 { probe.mark("m\(thread)") }
            }
        }
        stop.set()
        probe.close()
        #expect(probe.lastError == nil)
        #expect(probe.droppedEvents == 0)

        let times = try fixture.lines().dropFirst().map(Self.time(of:))
        let firstBackStep = times.indices.dropFirst().first { times[$0] < times[$0 - 1] }
        #expect(firstBackStep == nil, "a line earlier than the one before it")
        #expect(times.count > threads * perThread)
        let input = try fixture.read()
        #expect(!input.diagnosticCodes.contains("out-of-order"))
        #expect(input.events(.net).count == threads * perThread)
        #expect(input.events(.mark).count == threads * ((perThread + 6) / 7))
    }

    @Test("a thread that exits leaves its lines; two probes written by the same threads keep theirs apart")
    func exitedThreadsAndTwoProbes() throws {
        let first = try ProbeFixture(name: "first.jsonl")
        let second = try ProbeFixture(name: "second.jsonl")
        defer {
            first.remove()
            second.remove()
        }
        let one = try first.probe()
        let two = try second.probe()
        runThreads(2) { thread in
            for index in 0..<100 {
                one.net(.tx, bytes: index, connection: "one-\(thread)")
                two.net(.rx, bytes: index, connection: "two-\(thread)")
            }
        }
        // The threads are done, their lines still staged in their buffers; close merges them.
        one.close()
        two.close()
        let inputOne = try first.read()
        let inputTwo = try second.read()
        #expect(inputOne.events(.net).map { inputOne.text($0.label2) }.allSatisfy { $0.hasPrefix("one-") })
        #expect(inputTwo.events(.net).map { inputTwo.text($0.label2) }.allSatisfy { $0.hasPrefix("two-") })
        #expect(inputOne.events(.net).count == 200)
        #expect(inputTwo.events(.net).count == 200)
        #expect(inputOne.info.diagnostics.isEmpty && inputTwo.info.diagnostics.isEmpty)
    }

    @Test("events another thread records after close are counted as dropped")
    func droppedAfterCloseOnAnotherThread() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        runThreads(1) { _ in probe.mark("kept") }
        probe.close()
        runThreads(2) { _ in
            probe.mark("dropped")
            probe.mark("dropped")
        }
        #expect(probe.droppedEvents == 4)
        #expect(try fixture.read().timeline.count == 1)
    }

    /// The time of a trace line, from its `{"t":SECONDS` prefix, in nanoseconds.
    private static func time(of line: String) -> Int64 {
        let number = line.dropFirst(5).prefix { $0 == "." || $0.isNumber }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let seconds = Int64(parts[0]) ?? -1
        let fraction = parts.count > 1 ? String(parts[1]).padding(toLength: 9, withPad: "0", startingAt: 0) : "0"
        return seconds * 1_000_000_000 + (Int64(fraction) ?? -1)
    }
}

/// Runs `body` on `count` new threads at once and waits until each has finished it.
private func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchGroup()
    var threads: [Thread] = []
    for index in 0..<count {
        done.enter()
        threads.append(Thread {
            body(index)
            done.leave()
        })
    }
    for thread in threads { thread.start() }
    done.wait()
}

/// A flag one thread sets and another polls.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
