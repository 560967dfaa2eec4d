import DrainTrace

extension Timeline {
    /// The id of the thread the trace format calls `"main"`, or `nil` when the run names no
    /// such string. O(1).
    var mainThreadID: StringID? {
        guard let id = strings.lookup("main"), id != 0 else { return nil }
        return id
    }
}
