extension Array {
    /// Moves the elements into storage of their own count's size when more than a quarter of
    /// the present storage is unused. An array grown by appending keeps up to twice the room
    /// its elements need; a column that is built once and then only read (a capture's bursts,
    /// HTTP messages) gives that room back before the rules run, when
    /// memory peaks. O(count) when it moves the elements, O(1) otherwise.
    public mutating func releaseUnusedCapacity() {
        guard capacity - count > count / 4 + 64 else { return }
        self = withUnsafeBufferPointer { Array($0) }
    }

    /// Moves the elements into storage of exactly their count when any of the present storage
    /// is unused: for columns kept whole through the rules, when memory peaks (a capture's
    /// `net` rows). O(count) when it moves the elements, O(1) otherwise.
    public mutating func releaseAllUnusedCapacity() {
        guard capacity > count else { return }
        self = withUnsafeBufferPointer { Array($0) }
    }
}
