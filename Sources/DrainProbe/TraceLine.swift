/// Reading back the event lines the probe keeps in memory: each is `{"t":SECONDS,…}\n`,
/// and strings in lines are escaped, so `\n` only ever ends a line.
enum TraceLine {
    /// The time of the line at `start`, in nanoseconds, read back from its `{"t":SECONDS`
    /// prefix. O(length of the number).
    static func time(at start: UnsafePointer<UInt8>) -> Int64 {
        var index = 5
        var seconds: Int64 = 0
        while start[index] >= UInt8(ascii: "0") && start[index] <= UInt8(ascii: "9") {
            seconds = seconds &* 10 &+ Int64(start[index] &- UInt8(ascii: "0"))
            index += 1
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1_000_000_000
        if start[index] == UInt8(ascii: ".") {
            index += 1
            while start[index] >= UInt8(ascii: "0") && start[index] <= UInt8(ascii: "9") {
                scale /= 10
                fraction = fraction &+ Int64(start[index] &- UInt8(ascii: "0")) &* scale
                index += 1
            }
        }
        return seconds &* 1_000_000_000 &+ fraction
    }

    /// How many lines `bytes` ends: its newlines. O(bytes).
    static func count(in bytes: UnsafeRawBufferPointer) -> Int {
        var lines = 0
        for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
        return lines
    }
}
