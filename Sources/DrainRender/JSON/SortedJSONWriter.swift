#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `Encodable` values straight into JSON bytes, keys sorted, with no tree in between.
///
/// The output is, byte for byte, Foundation's `JSONEncoder` with `[.sortedKeys,
/// .withoutEscapingSlashes]` (plus `.prettyPrinted` when `pretty`): keys in UTF-8 order,
/// numbers spelled by their `description` without a trailing `.0`, two-space indentation,
/// `"key" : value`, and an empty container opened and closed on lines of its own. Foundation
/// builds a tree of every value first and then writes it; on a large report that tree was
/// a fifth of a whole capture analysis. This writer appends to one byte buffer instead and
/// sorts an object's members, when they came unsorted, by moving their finished bytes. The
/// report's types declare their `CodingKeys` in key order, so their objects come sorted and
/// only dictionaries are moved.
///
/// Containers must be used the way synthesized `Codable` uses them: a value's containers
/// are finished before its parent's next member starts. An encoding outside that shape
/// (a container written to after a sibling was started, `superEncoder`, a value that
/// encodes nothing, a key given twice) and non-finite numbers throw
/// ``SortedJSONWriter/Failure``; ``ReportJSON`` then encodes with Foundation, which names
/// the offending path.
struct SortedJSONWriter {
    enum Failure: Error, Equatable {
        case nonFiniteNumber
        case unsupportedShape
    }

    /// Encodes `value`. O(output bytes) plus, per object with unsorted members, a sort of its
    /// keys and one copy of its bytes.
    static func encode(_ value: some Encodable, pretty: Bool) throws -> [UInt8] {
        try encodeCountingReorders(value, pretty: pretty).bytes
    }

    /// `encode`, and how many objects had to have their members sorted.
    static func encodeCountingReorders(_ value: some Encodable, pretty: Bool) throws -> (bytes: [UInt8], reorderedObjects: Int) {
        let output = JSONOutput(pretty: pretty)
        try output.writeValue(value, level: 0)
        return (output.bytes, output.reorderedObjects)
    }
}

/// The buffer and the stack of open containers shared by every encoder and container of one
/// encoding.
final class JSONOutput {
    struct OpenContainer {
        let id: Int
        let isObject: Bool
        var count = 0
        /// Index in `members` of this object's first member.
        let memberBase: Int
    }

    struct Member {
        let key: String
        /// Where the member's bytes start: after the comma that separates it from the
        /// previous one, so moving it does not move a separator.
        let start: Int
    }

    /// The key order of an object shape seen before: objects of one type come with the same
    /// keys in the same order, so their sort is done once.
    struct KeyOrder {
        let keys: [String]
        let order: [Int]
    }

    // Only the encoding's own thread touches these, one call at a time; the run-time
    // exclusivity checks on them were a tenth of the encoding's time.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    let pretty: Bool
    /// What separates a member's key from its value: ` : ` pretty, `:` compact.
    let nameSeparator: [UInt8]
    @exclusivity(unchecked) private(set) var open: [OpenContainer] = []
    @exclusivity(unchecked) private var members: [Member] = []
    @exclusivity(unchecked) private(set) var nextID = 0
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var keyOrders: [KeyOrder] = []
    /// How many objects came with their members out of key order and were sorted: types that
    /// declare their coding keys in key order cost none (a dictionary's order is its hash's).
    @exclusivity(unchecked) private(set) var reorderedObjects = 0
    /// Set by the non-throwing `Encoder` entry points when asked for an unsupported shape;
    /// the encoding then throws when the value in hand is finished.
    @exclusivity(unchecked) var failed = false

    init(pretty: Bool) {
        self.pretty = pretty
        nameSeparator = pretty ? [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")] : [UInt8(ascii: ":")]
        // A long capture's report is 1–3 MB: reserved at once, its pages are touched once,
        // not again for each doubling. Pages never written are never mapped in.
        bytes.reserveCapacity(4 << 20)
    }

    // MARK: Containers

    /// Opens an object or array at stack `level` (one past the container holding it) and
    /// returns its id, or -1 (an id no container has) when the stack is not at that level.
    func openContainer(isObject: Bool, level: Int) -> Int {
        do {
            try close(above: level - 1)
        } catch {
            failed = true
        }
        guard open.count == level else {
            failed = true
            return -1
        }
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextID += 1
        open.append(OpenContainer(id: nextID, isObject: isObject, memberBase: members.count))
        return nextID
    }

    /// How many elements the container `id` at `level` holds so far.
    func elementCount(level: Int, id: Int) -> Int {
        level < open.count && open[level].id == id ? open[level].count : 0
    }

    /// Makes the container `id` at `level` the innermost open one, finishing any it holds.
    func activate(level: Int, id: Int) throws {
        try close(above: level)
        guard level < open.count, open[level].id == id else { throw SortedJSONWriter.Failure.unsupportedShape }
    }

    /// Finishes every open container deeper than `level`.
    func close(above level: Int) throws {
        while open.count > level + 1 {
            try closeTop()
        }
    }

    private func closeTop() throws {
        let top = open.removeLast()
        let level = open.count
        if top.count == 0 {
            if pretty {
                bytes.append(UInt8(ascii: "\n"))
                bytes.append(UInt8(ascii: "\n"))
                writeIndent(level)
            }
        } else {
            if top.isObject { try sortMembers(from: top.memberBase) }
            if pretty {
                bytes.append(UInt8(ascii: "\n"))
                writeIndent(level)
            }
        }
        if top.isObject { members.removeSubrange(top.memberBase...) }
        bytes.append(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// Puts the members from `base` on in key order, if they are not in it already.
    private func sortMembers(from base: Int) throws {
        var sorted = true
        for index in (base + 1)..<max(base + 1, members.count) where compare(members[index - 1].key, members[index].key) >= 0 {
            sorted = false
            break
        }
        if sorted { return }
        reorderedObjects += 1
        let order = try keyOrder(from: base)
        let end = bytes.count
        let regionStart = members[base].start
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(end - regionStart)
        for (position, offset) in order.enumerated() {
            let memberIndex = base + offset
            let start = members[memberIndex].start
            // A member ends where the next one's separating comma is, or where the object ends.
            let stop = memberIndex + 1 < members.count ? members[memberIndex + 1].start - 1 : end
            if position > 0 { scratch.append(UInt8(ascii: ",")) }
            scratch.append(contentsOf: bytes[start..<stop])
        }
        bytes.replaceSubrange(regionStart..<end, with: scratch)
    }

    /// The sorted order (offsets from `base`) of the members from `base` on: remembered for
    /// the last few key sequences, computed and checked for a repeated key otherwise.
    private func keyOrder(from base: Int) throws -> [Int] {
        let count = members.count - base
        for known in keyOrders where known.keys.count == count {
            var same = true
            // Byte equality: `String.==` also equates canonically equivalent spellings,
            // whose bytes, and so whose order, differ.
            for offset in 0..<count where compare(known.keys[offset], members[base + offset].key) != 0 {
                same = false
                break
            }
            if same { return known.order }
        }
        let keys = members[base...].map(\.key)
        var order = Array(0..<count)
        order.sort { compare(keys[$0], keys[$1]) < 0 }
        for index in 1..<count where compare(keys[order[index - 1]], keys[order[index]]) == 0 {
            throw SortedJSONWriter.Failure.unsupportedShape
        }
        if keyOrders.count == 32 { keyOrders.removeFirst() }
        keyOrders.append(KeyOrder(keys: keys, order: order))
        return order
    }

    /// -1, 0 or 1 as `a` sorts before, equal to or after `b` by their UTF-8 bytes.
    private func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                if order != 0 { return order < 0 ? -1 : 1 }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
        }
    }

    /// Starts the next element of the container at `level`: separator and indentation.
    func beginElement(level: Int, key: String?) throws {
        separate(level: level)
        if let key {
            members.append(Member(key: key, start: bytes.count))
        }
        startLine(level: level)
        if let key {
            writeString(key)
            writeNameSeparator()
        }
    }

    /// Counts a new element of the container at `level` and writes the comma before it.
    func separate(level: Int) {
        open[level].count += 1
        if open[level].count > 1 { bytes.append(UInt8(ascii: ",")) }
    }

    /// Counts `count` elements written into the container at `level` without `separate`.
    func countElements(_ count: Int, level: Int) {
        open[level].count += count
    }

    /// The line an element of the container at `level` starts on, when pretty.
    func startLine(level: Int) {
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            writeIndent(level + 1)
        }
    }

    /// What `startLine(level: level - 1)` writes: a new line indented for stack `level`, when pretty.
    func lineStart(level: Int) -> [UInt8] {
        pretty ? [UInt8(ascii: "\n")] + [UInt8](repeating: UInt8(ascii: " "), count: 2 * level) : []
    }

    func writeNameSeparator() {
        bytes.append(contentsOf: nameSeparator)
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    private func writeIndent(_ level: Int) {
        var remaining = 2 * level
        while remaining > 0 {
            let run = min(remaining, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[0..<run])
            remaining -= run
        }
    }

    // MARK: Values

    /// Writes `value` as a whole value whose containers, if any, sit at stack `level`.
    func writeValue<T: Encodable>(_ value: T, level: Int) throws {
        if try writePrimitive(value) || writeRows(value, level: level) { return }
        let encoder = JSONValueEncoder(output: self, level: level, firstID: nextID + 1)
        let before = bytes.count
        try value.encode(to: encoder)
        if failed || bytes.count == before { throw SortedJSONWriter.Failure.unsupportedShape }
        try close(above: level - 1)
    }

    /// Writes the standard library's scalar types without going through `Encoder`.
    private func writePrimitive<T: Encodable>(_ value: T) throws -> Bool {
        // Metatype identity, not `is` casts: a cast is a run-time call per value.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Float.self {
            try writeFloat(unsafeBitCast(value, to: Float.self))
        } else if T.self == Int.self {
            writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if T.self == UInt64.self {
            writeInteger(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Int32.self {
            writeInteger(unsafeBitCast(value, to: Int32.self))
        } else if T.self == UInt32.self {
            writeInteger(unsafeBitCast(value, to: UInt32.self))
        } else {
            return false
        }
        return true
    }

    func writeNull() {
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    func writeBool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    /// Any integer type, through the one concrete writer below: a generic writer was not
    /// specialised across the containers and paid witness-table calls per digit.
    @inline(__always)
    func writeInteger(_ value: some FixedWidthInteger) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            writeMagnitude(UInt64(value.magnitude))
        } else {
            writeMagnitude(UInt64(value))
        }
    }

    private func writeMagnitude(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
                count += 1
                buffer[buffer.count - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digit)
                rest = quotient
            } while rest != 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(buffer.count - count)...]))
        }
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw SortedJSONWriter.Failure.nonFiniteNumber }
        var stream = NumberStream(output: self)
        value.write(to: &stream)
        dropIntegralFraction(from: stream.start)
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw SortedJSONWriter.Failure.nonFiniteNumber }
        var stream = NumberStream(output: self)
        value.write(to: &stream)
        dropIntegralFraction(from: stream.start)
    }

    /// Drops the `.0` of an integral value's spelling, written from `start` on.
    private func dropIntegralFraction(from start: Int) {
        let end = bytes.count
        if end - start > 2, bytes[end - 2] == UInt8(ascii: "."), bytes[end - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// Where a float writes its shortest round-trip spelling (its `description`): straight
    /// into the output. The standard library hands a float's digits to `_writeASCII` as
    /// bytes; `description` made a `String` of them first, a heap allocation for the
    /// 17-character spellings most energies have, and took 2.7 times as long.
    private struct NumberStream: TextOutputStream {
        let output: JSONOutput
        let start: Int

        init(output: JSONOutput) {
            self.output = output
            start = output.bytes.count
        }

        mutating func write(_ string: String) {
            output.bytes.append(contentsOf: string.utf8)
        }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            output.bytes.append(contentsOf: buffer)
        }
    }

    /// A JSON string: quote, backslash and control characters escaped, `/` and non-ASCII as
    /// they are.
    func writeString(_ value: String) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
