import Dispatch
import DrainImport
import DrainProbe

/// `drain-bench probe [--events N] [--repeat N]`: the time DrainProbe adds per event, for
/// two typical events (a `net` event with a host and a connection, a `cpu` slice taken
/// with `now()` and `cpu(_:since:)`), from one thread and from two threads at once. The
/// trace goes to a temporary file with the default options (64 KiB buffer, memory
/// sampled and flushed every second), so the cost of writing the file is included; the
/// file is read back to check that every event arrived, then removed.
enum ProbeBenchmark {
    static func run(_ arguments: [String]) {
        let events = option("--events", in: arguments).flatMap(Int.init) ?? 1_000_000
        let repeats = option("--repeat", in: arguments).flatMap(Int.init) ?? 5
        guard events > 0, repeats > 0 else {
            print("usage: drain-bench probe [--events N] [--repeat N]")
            exit(64)
        }
        var template = Array("/tmp/drain-bench-probe-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            print("cannot create a temporary directory in /tmp")
            exit(73)
        }
        let path = directory + "/probe.jsonl"
        defer {
            unlink(path)
            rmdir(directory)
        }
        let probe: DrainProbe
        do {
            probe = try DrainProbe(path: path, process: "drain-bench", device: "iphone-lte")
        } catch {
            print(error)
            exit(73)
        }

        var written = 0
        for threads in [1, 2] {
            let perThread = events / threads
            let net = measure(threads: threads, repeats: repeats) {
                for index in 0..<perThread {
                    probe.net(.rx, bytes: 1200 + index & 1023, host: "api.example.com", interface: .cellular, connection: "c1")
                }
            }
            let cpu = measure(threads: threads, repeats: repeats) {
                for _ in 0..<perThread {
                    let start = probe.now()
                    probe.cpu("parse", since: start)
                }
            }
            // Each workload runs once to warm up, then `repeats` times.
            written += 2 * (repeats + 1) * perThread * threads
            report("net event", threads: threads, events: perThread * threads, timing: net)
            report("cpu slice", threads: threads, events: perThread * threads, timing: cpu)
        }
        probe.close()

        do {
            let input = try DrainTraceImporter.read(path: path)
            let memory = input.timeline.count - written
            let diagnostics = input.info.diagnostics.entries.map { "\($0.code) ×\($0.count)" }
            print("trace: \(input.timeline.count) events read back (\(written) written by the benchmark, \(memory) memory samples); diagnostics: \(diagnostics.isEmpty ? "none" : diagnostics.joined(separator: ", "))")
            if memory < 0 || probe.lastError != nil { exit(70) }
        } catch {
            print("the trace does not read back: \(error)")
            exit(70)
        }
    }

    /// The median, over `repeats` runs after a warm-up run, of the wall-clock time of a run
    /// and of the CPU time its threads used (`CLOCK_THREAD_CPUTIME_ID`, summed): on a
    /// shared machine the wall clock also counts time the threads waited for a core, the
    /// CPU time does not.
    private static func measure(threads: Int, repeats: Int, _ body: @Sendable () -> Void) -> (wall: Double, cpu: Double) {
        var walls: [Double] = []
        var cpus: [Double] = []
        for run in 0...repeats {
            // One slot per thread, written by that thread only.
            let cpu = UnsafeMutableBufferPointer<Double>.allocate(capacity: threads)
            defer { cpu.deallocate() }
            nonisolated(unsafe) let slots = cpu
            let start = ContinuousClock.now
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                let before = threadCPUTime()
                body()
                slots[thread] = threadCPUTime() - before
            }
            let elapsed = ContinuousClock.now - start
            guard run > 0 else { continue }
            walls.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            cpus.append(cpu.reduce(0, +))
        }
        walls.sort()
        cpus.sort()
        return (walls[walls.count / 2], cpus[cpus.count / 2])
    }

    /// Prints the time per event: CPU time per event, and wall-clock time per event as each
    /// thread sees it.
    private static func report(_ name: String, threads: Int, events: Int, timing: (wall: Double, cpu: Double)) {
        let cpu = timing.cpu / Double(events) * 1e9
        let wall = timing.wall / Double(events / threads) * 1e9
        let label = threads == 1 ? "1 thread " : "\(threads) threads"
        print("probe \(name), \(label): \(Int(cpu.rounded())) ns CPU per event, \(Int(wall.rounded())) ns wall-clock per event per thread")
    }
}

/// The calling thread's CPU time in seconds.
private func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
