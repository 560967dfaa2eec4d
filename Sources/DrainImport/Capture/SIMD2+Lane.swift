extension SIMD2 where Scalar: FixedWidthInteger {
    /// Sets lane `index` (a flow direction, 0 or 1) to `value`, both lanes chosen in registers.
    /// `vector[index] = value` with an index known only at run time writes the lane to memory
    /// and reads the vector back whole, and that read waits for the narrower write to retire (a
    /// store-forwarding stall): on the sessions capture such stalls in a flow's per-direction
    /// counters were about two thirds of `FlowTracker.add`'s own time.
    @inline(__always)
    mutating func set(lane index: Int, to value: Scalar) {
        let first = index == 0
        self = SIMD2(first ? value : x, first ? y : value)
    }

    /// Adds `value` to lane `index` (wrapping), as `set(lane:to:)` does without a stall.
    @inline(__always)
    mutating func add(_ value: Scalar, toLane index: Int) {
        let first = index == 0
        self = SIMD2(first ? x &+ value : x, first ? y : y &+ value)
    }
}
