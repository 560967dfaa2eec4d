import DrainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls strace printed as `name(args <unfinished ...>`, waiting for their
/// `<... name resumed>rest` line, one per process or thread (a thread is in at most one call).
///
/// The start of each call is copied into a buffer from a pool whose buffers keep their
/// capacity, so pairing calls allocates nothing once the pool has grown to the number of
/// threads that were in a call at one time. O(length of the call's text) per pair.
struct StraceUnfinishedCalls {
    /// The start of one call.
    struct Call {
        /// `name(` and the arguments printed so far.
        var text: [UInt8] = []
        var syscall: StraceSyscall?
        /// The time the call started.
        var entry: Nanoseconds = 0
        var line = 0
    }

    private var slotOfProcess: [Int32: Int] = [:]
    private var slots: [Call] = []
    private var free: [Int] = []

    /// The number of calls waiting.
    var count: Int { slotOfProcess.count }

    /// Records that `pid` started a call that is not finished yet: `name(` and the
    /// arguments printed so far. Replaces any call `pid` had waiting (returns true then).
    @discardableResult
    mutating func start(
        pid: Int32, syscall: StraceSyscall?, text: UnsafeRawBufferPointer, entry: Nanoseconds, line: Int
    ) -> Bool {
        let replaced = slotOfProcess[pid] != nil
        let slot: Int
        if let existing = slotOfProcess[pid] {
            slot = existing
        } else if let reused = free.popLast() {
            slot = reused
        } else {
            slot = slots.count
            slots.append(Call())
        }
        slotOfProcess[pid] = slot
        slots[slot].text.removeAll(keepingCapacity: true)
        slots[slot].text.append(contentsOf: text)
        slots[slot].syscall = syscall
        slots[slot].entry = entry
        slots[slot].line = line
        return replaced
    }

    /// Whether `pid` has a call of the name at the start of `text` waiting.
    func isWaiting(pid: Int32, name: UnsafeRawBufferPointer) -> Bool {
        guard let slot = slotOfProcess[pid] else { return false }
        let text = slots[slot].text
        guard text.count > name.count, text[name.count] == StraceSyntax.openParenthesis else { return false }
        return text.withUnsafeBytes { memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 }
    }

    /// Ends the call `pid` has waiting: writes its start followed by `rest` into `joined`
    /// (emptied first) and returns the call's details (its `text` left empty); nil if `pid`
    /// has no call waiting.
    mutating func finish(pid: Int32, rest: UnsafeRawBufferPointer, into joined: inout [UInt8]) -> Call? {
        guard let slot = slotOfProcess.removeValue(forKey: pid) else { return nil }
        joined.removeAll(keepingCapacity: true)
        joined.append(contentsOf: slots[slot].text)
        joined.append(contentsOf: rest)
        free.append(slot)
        return Call(syscall: slots[slot].syscall, entry: slots[slot].entry, line: slots[slot].line)
    }

    /// Forgets the call `pid` had waiting (the process exited or detached in it).
    @discardableResult
    mutating func drop(pid: Int32) -> Bool {
        guard let slot = slotOfProcess.removeValue(forKey: pid) else { return false }
        free.append(slot)
        return true
    }
}
