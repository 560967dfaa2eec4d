import Dispatch
import DrainProbe

/// A small sync engine: a repeating timer fetches notes from the server, merges them and
/// saves the state file. Everything it does is recorded through the probe.
///
/// Its mutable state is touched only on `queue` (the timer's queue, and `queue.sync` from
/// other threads), which is what makes the `@unchecked Sendable` sound.
final class SyncEngine: @unchecked Sendable {
    private let probe: DrainProbe
    private let client: NotesClient
    private let store: StateStore
    private let queue = DispatchQueue(label: "sync")
    private var timer: DispatchSourceTimer?
    // Only on `queue`:
    private var cycle = 0
    private var notes: [UInt8] = []
    private var failure: SystemCallError?

    init(probe: DrainProbe, client: NotesClient, store: StateStore) {
        self.probe = probe
        self.client = client
        self.store = store
    }

    /// Loads the saved state, timed as the launch's CPU slice.
    func launch() {
        queue.sync {
            notes = probe.measure("launch") { store.load() }
        }
    }

    /// Starts syncing every `interval`; the timer keeps running until `stop()`, also in
    /// the background (as in many apps, and what Drain's rules look for).
    func start(every interval: Duration, leeway: Duration) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let period = Self.dispatchInterval(interval)
        timer.schedule(deadline: .now() + period, repeating: period, leeway: Self.dispatchInterval(leeway))
        timer.setEventHandler { [self] in
            probe.wakeup(reason: "timer", source: "sync")
            sync()
        }
        probe.timer("sync", interval: interval, tolerance: leeway, repeats: true)
        queue.sync { self.timer = timer }
        timer.resume()
    }

    /// One sync now, on the engine's queue, waiting for it to finish.
    func syncNow() {
        queue.sync { sync() }
    }

    /// Stops the timer and waits for a sync in progress. Returns the first error a sync
    /// met, if any.
    func stop() -> SystemCallError? {
        queue.sync {
            timer?.cancel()
            timer = nil
            return failure
        }
    }

    /// The app was told memory is short: it drops its in-memory copy of the notes, as an
    /// app drops caches. A 32 MiB cache is filled first so that the warning has something
    /// to free, and the footprint is sampled before and after.
    func simulateMemoryWarning() {
        queue.sync {
            var cache = [UInt8](repeating: 0, count: 32 << 20)
            for page in stride(from: 0, to: cache.count, by: 4096) { cache[page] = UInt8(truncatingIfNeeded: page >> 12) }
            probe.sampleMemory()
            probe.memoryWarning()
            cache = []
            notes = []
            probe.sampleMemory()
        }
    }

    /// Fetch, merge, save. Runs on `queue`.
    private func sync() {
        cycle += 1
        let start = probe.now()
        do {
            let page = try client.fetch(pages: 1 + cycle % 4, connection: "c\(cycle)")
            probe.measure("merge") { merge(page) }
            try store.save(notes)
        } catch {
            if failure == nil { failure = error }
        }
        probe.mark("sync \(cycle)", since: start)
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Keeps the newest 64 KiB of notes.
    private func merge(_ page: [UInt8]) {
        notes += page
        if notes.count > 64 * 1024 { notes.removeFirst(notes.count - 64 * 1024) }
    }
}
