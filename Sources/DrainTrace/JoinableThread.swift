#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread running one closure, joined by the thread that started it. `join` orders
/// everything the closure wrote before whatever its caller does next — a plain happens-before
/// edge that the thread sanitizer sees, unlike a dispatch queue's.
public struct JoinableThread {
    private let thread: pthread_t

    /// Starts `body` on a new thread. When no thread can be created, runs `body` on this one
    /// and returns nil: the caller gets its work done either way — unless `runHereIfNoThread`
    /// is false (for a body that waits for its caller, which would then wait forever): then
    /// `body` is not run and nil says so.
    public static func start(runHereIfNoThread: Bool = true, _ body: @escaping @Sendable () -> Void) -> JoinableThread? {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0, let thread else {
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
            if runHereIfNoThread { work.body() }
            return nil
        }
        #else
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
            if runHereIfNoThread { work.body() }
            return nil
        }
        #endif
        return JoinableThread(thread: thread)
    }

    /// Waits for the closure to finish.
    public func join() {
        pthread_join(thread, nil)
    }

    private final class Work: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

/// Independent pieces of work shared out over a few threads, the calling thread one of them.
public enum ParallelWork {
    /// The threads `map` uses by default: the online processors, at most `limit`.
    public static func defaultThreads(limit: Int = 2) -> Int {
        max(1, min(limit, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    /// `body(i)` for every `i` in `0..<count`, in index order, computed on `threads` threads:
    /// each takes the next index not yet taken, so long pieces and short ones balance out.
    /// `body` must only read what the pieces share. O(count) besides the work.
    public static func map<Value>(
        _ count: Int, threads: Int = defaultThreads(), _ body: @Sendable (Int) -> Value
    ) -> [Value] {
        guard count > 1, threads > 1 else { return (0..<count).map(body) }
        let results = ResultSlots<Value>(count: count)
        withoutActuallyEscaping(body) { body in
            let work = SharedWork(body: body, results: results)
            let helpers = (1..<min(threads, count)).map { _ in JoinableThread.start { work.drain() } }
            work.drain()
            for helper in helpers { helper?.join() }
        }
        return results.collected()
    }

    /// The pieces' next index, under a lock, and where each result goes.
    private final class SharedWork<Value>: @unchecked Sendable {
        let body: (Int) -> Value
        let results: ResultSlots<Value>
        private let lock = ThreadLock()
        private var next = 0

        init(body: @escaping (Int) -> Value, results: ResultSlots<Value>) {
            self.body = body
            self.results = results
        }

        /// Takes indices until none is left, storing each result in its slot.
        func drain() {
            while true {
                let index = lock.withLock {
                    defer { next += 1 }
                    return next
                }
                guard index < results.count else { return }
                results.store(body(index), at: index)
            }
        }
    }

    /// One slot per piece, each written by exactly one thread before the threads are joined.
    private final class ResultSlots<Value>: @unchecked Sendable {
        let count: Int
        private let slots: UnsafeMutablePointer<Value?>

        init(count: Int) {
            self.count = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil, count: count)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        func store(_ result: Value, at index: Int) {
            slots[index] = result
        }

        /// Every result, in index order. Only after every thread that stored one was joined.
        func collected() -> [Value] {
            (0..<count).map { slots[$0]! }
        }
    }
}

/// A pthread mutex at a fixed heap address (a mutex must not move once initialised, which a
/// Swift stored property does not promise).
public final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
