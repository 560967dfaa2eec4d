extension DrainProbe {
    /// How a probe buffers and samples.
    public struct Options: Sendable {
        /// The size of each thread's event buffer, in bytes (at least 4096); a thread that
        /// records events holds two of them, and the trace one more for writing. A thread
        /// whose buffer is full merges its older half, with the other threads' lines up to
        /// the same time, into the file. Events are about 60–120 bytes, so the default
        /// 64 KiB holds some 500–1000 events.
        public var bufferCapacity: Int

        /// How often the background thread records the process's memory footprint as a
        /// `memory` event and then writes the buffered events older than one interval to
        /// the file (newer ones wait, so that slices shorter than an interval still go in at
        /// their place). A crash thus loses at most the last two intervals. `nil` for no
        /// background thread at all: the trace then reaches the file on `flush()`, when the
        /// buffer fills, and at exit.
        public var memorySamplingInterval: Duration?

        public init(bufferCapacity: Int = 64 * 1024, memorySamplingInterval: Duration? = .seconds(1)) {
            self.bufferCapacity = bufferCapacity
            self.memorySamplingInterval = memorySamplingInterval
        }
    }
}
