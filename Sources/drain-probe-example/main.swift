// drain-probe-example: a small sync engine instrumented with DrainProbe, for the tests and
// for trying `drain analyze` on a real trace. Over `--seconds` (default 3) it:
//
//   launches (lifecycle active, the state file read in a "launch" CPU slice), starts a
//   loopback HTTP server (a socket listener resource) and a repeating sync timer that
//   fetches notes, merges them and saves the state file with fsync; at a third of the run
//   it gets a simulated memory warning and frees a cache; at half it goes to the
//   background and finishes a sync inside a background task, while its timer keeps
//   running; at the end it is suspended, stops, and the trace is flushed.
//
// Exit status: 0, 64 for bad usage, 73 if the trace cannot be created, 74 if writing it or
// the example's own I/O failed.

import DrainProbe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
    exit(status)
}

guard let arguments = ExampleArguments(Array(CommandLine.arguments.dropFirst())) else {
    fail(ExampleArguments.usage, status: 64)
}

/// Sleeps until `seconds` after `start` on the monotonic clock.
func sleep(until seconds: Double, after start: ContinuousClock.Instant) {
    let deadline = start + .nanoseconds(Int64(seconds * 1e9))
    while true {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return }
        let (whole, attoseconds) = remaining.components
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int(attoseconds / 1_000_000_000))
        nanosleep(&request, nil)
    }
}

// A server that goes away mid-request must not kill the process.
signal(SIGPIPE, SIG_IGN)

let probe: DrainProbe
do {
    probe = try DrainProbe(
        path: arguments.output, process: "drain-probe-example", device: "iphone-lte",
        options: .init(memorySamplingInterval: .milliseconds(200)))
} catch {
    fail("drain-probe-example: \(error)", status: 73)
}
let began = ContinuousClock.now
probe.lifecycle(.active)

var directoryTemplate = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/drain-probe-example-XXXXXX").utf8CString)
guard let directory = mkdtemp(&directoryTemplate).map({ String(cString: $0) }) else {
    fail("drain-probe-example: cannot create a temporary directory: \(String(cString: strerror(errno)))", status: 74)
}
let statePath = directory + "/state.json"
defer {
    unlink(statePath)
    rmdir(directory)
}

let server: LoopbackServer
do {
    server = try LoopbackServer()
} catch {
    fail("drain-probe-example: cannot start the loopback server: \(error)", status: 74)
}
probe.resource("socket_listener", .acquire, id: "loopback-http")

let engine = SyncEngine(
    probe: probe, client: NotesClient(port: server.port, probe: probe), store: StateStore(path: statePath, probe: probe))
engine.launch()
// Every 250 ms, or more often in a short run so that it still syncs about ten times;
// a tenth of the interval as leeway.
let intervalMilliseconds = max(20, min(250, Int(arguments.seconds * 100)))
engine.start(every: .milliseconds(intervalMilliseconds), leeway: .milliseconds(intervalMilliseconds / 10))

sleep(until: arguments.seconds / 3, after: began)
engine.simulateMemoryWarning()

sleep(until: arguments.seconds / 2, after: began)
probe.lifecycle(.inactive)
probe.lifecycle(.background)
probe.backgroundTask(.begin, id: "final-sync")
engine.syncNow()
probe.backgroundTask(.end, id: "final-sync")

sleep(until: arguments.seconds, after: began)
let syncFailure = engine.stop()
server.stop()
probe.resource("socket_listener", .release, id: "loopback-http")
probe.lifecycle(.suspended)
probe.close()

if let syncFailure { fail("drain-probe-example: sync failed: \(syncFailure)", status: 74) }
if let error = probe.lastError { fail("drain-probe-example: \(error)", status: 74) }
