import DrainTrace

/// The threads of a Chrome trace, by process and thread id, with the names metadata events
/// give them; decides which thread is the app's main thread and names each thread for the
/// timeline's `thread` column.
struct ChromeThreadTable {
    struct Thread {
        /// The `pid` and `tid` as their text, interned (0 when absent).
        var process: StringID
        var thread: StringID
        /// The `thread_name` metadata, or 0.
        var name: StringID = 0
        /// Slices and instants on the thread, to find the busiest process.
        var events = 0
    }

    private(set) var threads: [Thread] = []
    private var indices: [UInt64: Int32] = [:]
    private var processNames: [StringID: StringID] = [:]
    /// The last thread looked up: events of one thread usually come in runs.
    private var last: (key: UInt64, index: Int32) = (.max, 0)

    /// The index of the thread `thread` of process `process`, added when new. O(1).
    @inline(__always)
    mutating func index(process: StringID, thread: StringID) -> Int32 {
        let key = UInt64(process) << 32 | UInt64(thread)
        if key == last.key { return last.index }
        let index: Int32
        if let known = indices[key] {
            index = known
        } else {
            index = Int32(threads.count)
            threads.append(Thread(process: process, thread: thread))
            indices[key] = index
        }
        last = (key, index)
        return index
    }

    mutating func countEvent(on thread: Int32) {
        threads[Int(thread)].events += 1
    }

    mutating func name(thread: Int32, _ name: StringID) {
        threads[Int(thread)].name = name
    }

    mutating func name(process: StringID, _ name: StringID) {
        processNames[process] = name
    }

    /// Thread names Chrome gives the main threads of its processes.
    private static let mainThreadNames: Set<String> = ["CrRendererMain", "CrBrowserMain"]

    /// The `thread` string of every thread (by index), and the app's process name.
    ///
    /// The app's process is the busiest one (most slices and instants) among those with a
    /// `CrRendererMain` thread, or among all when none has one; ties go to the process seen
    /// first. Its main thread — named `CrRendererMain`, `CrBrowserMain` or `main` (in any
    /// case), else the thread whose `tid` equals the `pid` — is `main`. Its other threads go
    /// by their name, else their `tid`; threads of other processes by `process/thread`, the
    /// process by its name, else `pid N`. A name several threads share gets ` (tid)` added.
    /// O(threads).
    func resolve(strings: inout StringTable) -> (threads: [StringID], process: String?) {
        guard !threads.isEmpty else { return ([], nil) }
        var processOrder: [StringID] = []
        var eventsByProcess: [StringID: Int] = [:]
        var hasRenderer: Set<StringID> = []
        for thread in threads {
            if eventsByProcess[thread.process] == nil { processOrder.append(thread.process) }
            eventsByProcess[thread.process, default: 0] += thread.events
            if thread.name != 0, strings[thread.name] == "CrRendererMain" { hasRenderer.insert(thread.process) }
        }
        let candidates = hasRenderer.isEmpty ? processOrder : processOrder.filter(hasRenderer.contains)
        var app = candidates[0]
        for process in candidates where eventsByProcess[process]! > eventsByProcess[app]! { app = process }

        var mainThread: [StringID: Int] = [:]
        for (index, thread) in threads.enumerated() where mainThread[thread.process] == nil && isNamedMain(thread, strings) {
            mainThread[thread.process] = index
        }
        for (index, thread) in threads.enumerated() where mainThread[thread.process] == nil && thread.thread == thread.process {
            mainThread[thread.process] = index
        }

        let appMain = mainThread[app]
        var labels = threads.map { $0.name != 0 ? strings[$0.name] : strings[$0.thread] }
        if let appMain { labels[appMain] = "main" }
        var uses: [String: Int] = [:]
        for (index, label) in labels.enumerated() where threads[index].name != 0 || index == appMain {
            uses["\(threads[index].process)/\(label)", default: 0] += 1
        }
        for (index, thread) in threads.enumerated() where index != appMain {
            if thread.name != 0, uses["\(thread.process)/\(labels[index])", default: 0] > 1 {
                labels[index] += " (\(strings[thread.thread]))"
            }
            if thread.process != app {
                let process = processNames[thread.process].map { strings[$0] } ?? "pid \(strings[thread.process])"
                labels[index] = "\(process)/\(labels[index])"
            }
        }
        let ids = labels.map { strings.intern($0) }
        return (ids, processNames[app].map { strings[$0] })
    }

    private func isNamedMain(_ thread: Thread, _ strings: StringTable) -> Bool {
        guard thread.name != 0 else { return false }
        let name = strings[thread.name]
        return Self.mainThreadNames.contains(name) || name.lowercased() == "main"
    }
}
