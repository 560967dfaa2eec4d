#if os(Linux)
/// The fields of `/proc/PID/task/TID/status` the recorder uses.
///
/// `Name:` is the thread's command name as the kernel prints it here: a newline and a
/// backslash in it come escaped as `\n` and `\\`, which `name` undoes.
public struct ProcStatus: Equatable, Sendable {
    /// The command name's bytes (at most 15 in Linux, so possibly a cut UTF-8 sequence).
    public var name: [UInt8]
    /// The state letter: `R`, `S`, `D`, `Z`, …
    public var state: UInt8
    public var parentPID: Int32
    /// Resident set size in bytes (`VmRSS`), nil for kernel threads and zombies.
    public var residentBytes: Int64?
    /// `voluntary_ctxt_switches`: how often the thread gave up the CPU to wait.
    public var voluntarySwitches: Int64

    public init(name: [UInt8], state: UInt8, parentPID: Int32, residentBytes: Int64?, voluntarySwitches: Int64) {
        self.name = name
        self.state = state
        self.parentPID = parentPID
        self.residentBytes = residentBytes
        self.voluntarySwitches = voluntarySwitches
    }

    /// Parses the text of a status file; nil without `State:` and `voluntary_ctxt_switches:`.
    /// O(n) in the text.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ProcStatus? {
        var status = ProcStatus(name: [], state: 0, parentPID: 0, residentBytes: nil, voluntarySwitches: -1)
        guard status.update(from: bytes) else { return nil }
        return status
    }

    /// Parses into `self`, reusing `name`'s storage (the sampler's steady state allocates
    /// nothing). Returns false when the text lacks `State:` or `voluntary_ctxt_switches:`.
    public mutating func update(from bytes: UnsafeRawBufferPointer) -> Bool {
        var sawState = false
        var sawSwitches = false
        residentBytes = nil
        ProcText.forEachLine(bytes) { line in
            guard let first = line.first else { return }
            switch first {
            case UInt8(ascii: "N") where ProcText.hasPrefix(line, "Name:"):
                setName(UnsafeRawBufferPointer(rebasing: line[5...]))
            case UInt8(ascii: "S") where ProcText.hasPrefix(line, "State:"):
                var index = 6
                while index < line.count, ProcText.isBlank(line[index]) { index += 1 }
                if index < line.count {
                    state = line[index]
                    sawState = true
                }
            case UInt8(ascii: "P"):
                if let parent = ProcText.value(line, key: "PPid:"), parent <= Int64(Int32.max) { parentPID = Int32(parent) }
            case UInt8(ascii: "V"):
                if let kilobytes = ProcText.value(line, key: "VmRSS:") { residentBytes = kilobytes * 1024 }
            case UInt8(ascii: "v"):
                if let switches = ProcText.value(line, key: "voluntary_ctxt_switches:") {
                    voluntarySwitches = switches
                    sawSwitches = true
                }
            default:
                break
            }
        }
        return sawState && sawSwitches
    }

    private mutating func setName(_ text: UnsafeRawBufferPointer) {
        name.removeAll(keepingCapacity: true)
        var index = 0
        while index < text.count, ProcText.isBlank(text[index]) { index += 1 }
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\\"), index + 1 < text.count {
                let next = text[index + 1]
                if next == UInt8(ascii: "n") {
                    name.append(0x0A)
                    index += 2
                    continue
                }
                if next == UInt8(ascii: "\\") {
                    name.append(next)
                    index += 2
                    continue
                }
            }
            name.append(byte)
            index += 1
        }
    }
}
#endif
