#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceWriter {
    /// Lines one thread staged, in time order, as a merge walks through them: the line at
    /// the head and its time.
    struct Run {
        private let lines: UnsafeMutablePointer<UInt8>
        private let count: Int
        private var position = 0
        private var headEnd = 0
        private(set) var headTime: Int64 = 0

        /// `count` bytes of whole lines at `lines`; at least one.
        init(lines: UnsafeMutablePointer<UInt8>, count: Int) {
            self.lines = lines
            self.count = count
            readHead()
        }

        /// The line at the head, with its newline.
        var head: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: lines + position, count: headEnd - position) }

        /// The lines from the head on.
        var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: lines + position, count: count - position) }

        /// Moves past the head line; `false` when none is left.
        mutating func advance() -> Bool {
            position = headEnd
            guard position < count else { return false }
            readHead()
            return true
        }

        private mutating func readHead() {
            let newline = memchr(lines + position, Int32(UInt8(ascii: "\n")), count - position)!
            headEnd = newline.assumingMemoryBound(to: UInt8.self) - lines + 1
            headTime = TraceLine.time(at: lines + position)
        }
    }
}
