/// Reads DNS responses in place: the question name, and the A/AAAA answers that belong to it
/// directly or through a CNAME chain. Names are compared and decoded straight from the
/// message, following compression pointers with a hop limit, so a pointer loop or a name that
/// runs off the end ends the walk instead of the program. Allocates nothing.
struct DNSMessage {
    let bytes: UnsafeRawBufferPointer

    /// The most compression pointers followed within one name.
    static let pointerLimit = 32
    /// The most answers read from one message.
    static let answerLimit = 256
    /// The longest CNAME chain followed.
    static let chainLimit = 16
    /// The longest name, in bytes of its dotted text (RFC 1035: 255 octets on the wire).
    static let nameLimit = 255

    enum Outcome: Equatable {
        /// A response that was read (it may have had no usable answers).
        case read
        /// A query, or a response with an error code or without a question: nothing to learn.
        case ignored
        /// The message is not valid DNS.
        case malformed
    }

    private struct Record {
        var owner: Int
        var type: UInt16
        var data: Int
        var length: Int
    }

    /// Calls `found(question, address)` for each address the response gives for its question
    /// name, where `question` is the name's offset for `decodeName`. O(answers × chain) name
    /// comparisons.
    func addresses(_ found: (_ question: Int, _ address: IPAddress) -> Void) -> Outcome {
        guard bytes.count >= 12 else { return .malformed }
        let flags = bytes.u16(at: 2)
        let questions = Int(bytes.u16(at: 4))
        let answers = Int(bytes.u16(at: 6))
        guard flags & 0x8000 != 0, flags & 0x000F == 0, questions >= 1 else { return .ignored }
        var position = 12
        for _ in 0..<questions {
            guard let end = skipName(at: position), end + 4 <= bytes.count else { return .malformed }
            position = end + 4
        }
        let count = min(answers, Self.answerLimit)
        return withUnsafeTemporaryAllocation(of: Record.self, capacity: count) { records -> Outcome in
            var read = 0
            for _ in 0..<count {
                guard let nameEnd = skipName(at: position), nameEnd + 10 <= bytes.count else { return .malformed }
                let length = Int(bytes.u16(at: nameEnd + 8))
                guard nameEnd + 10 + length <= bytes.count else { return .malformed }
                records[read] = Record(owner: position, type: bytes.u16(at: nameEnd), data: nameEnd + 10, length: length)
                read += 1
                position = nameEnd + 10 + length
            }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.chainLimit) { chain -> Outcome in
                chain[0] = 12
                var links = 1
                // Follow CNAMEs from the question name, whatever order the answers come in.
                var grew = true
                while grew, links < Self.chainLimit {
                    grew = false
                    for index in 0..<read where records[index].type == 5 && links < Self.chainLimit {
                        let record = records[index]
                        let owned = (0..<links).contains { nameEquals(chain[$0], record.owner) }
                        let known = (0..<links).contains { nameEquals(chain[$0], record.data) }
                        if owned, !known {
                            chain[links] = record.data
                            links += 1
                            grew = true
                        }
                    }
                }
                for index in 0..<read {
                    let record = records[index]
                    guard (record.type == 1 && record.length == 4) || (record.type == 28 && record.length == 16),
                        (0..<links).contains(where: { nameEquals(chain[$0], record.owner) })
                    else { continue }
                    found(12, record.length == 4 ? IPAddress.v4(bytes, at: record.data) : IPAddress.v6(bytes, at: record.data))
                }
                return .read
            }
        }
    }

    /// The offset after the name at `offset` (after its terminating zero or its first pointer),
    /// or `nil` if it runs off the end or uses a reserved label type.
    func skipName(at offset: Int) -> Int? {
        var position = offset
        var total = 0
        while position < bytes.count {
            let length = Int(bytes[position])
            switch length & 0xC0 {
            case 0xC0:
                return position + 2 <= bytes.count ? position + 2 : nil
            case 0:
                if length == 0 { return position + 1 }
                total += length + 1
                guard total <= Self.nameLimit + 1 else { return nil }
                position += length + 1
            default:
                return nil
            }
        }
        return nil
    }

    /// Where the next label of a name is, following pointers from `position`; `nil` on a
    /// pointer loop, a reserved label type or the end of the message.
    private func label(at position: Int, hops: inout Int) -> Int? {
        var position = position
        while position < bytes.count {
            let byte = bytes[position]
            switch byte & 0xC0 {
            case 0:
                return position + 1 + Int(byte) <= bytes.count ? position : nil
            case 0xC0:
                guard position + 2 <= bytes.count, hops < Self.pointerLimit else { return nil }
                hops += 1
                position = Int(bytes.u16(at: position) & 0x3FFF)
            default:
                return nil
            }
        }
        return nil
    }

    /// Whether the names at two offsets are equal, ignoring ASCII case.
    func nameEquals(_ first: Int, _ second: Int) -> Bool {
        var a = first
        var b = second
        var hopsA = 0
        var hopsB = 0
        var total = 0
        while total <= Self.nameLimit {
            guard let labelA = label(at: a, hops: &hopsA), let labelB = label(at: b, hops: &hopsB) else { return false }
            let length = Int(bytes[labelA])
            guard length == Int(bytes[labelB]) else { return false }
            if length == 0 { return true }
            for index in 1...length where Self.lower(bytes[labelA + index]) != Self.lower(bytes[labelB + index]) {
                return false
            }
            a = labelA + 1 + length
            b = labelB + 1 + length
            total += length + 1
        }
        return false
    }

    /// Writes the name at `offset` as dotted text, ASCII letters lowered, into `buffer` (at least
    /// `nameLimit` bytes) and returns its length, or `nil` if the name is invalid or the root.
    /// Label bytes are copied as they are: a name is untrusted data.
    func decodeName(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var position = offset
        var hops = 0
        var written = 0
        while true {
            guard let start = label(at: position, hops: &hops) else { return nil }
            let length = Int(bytes[start])
            if length == 0 { return written == 0 ? nil : written }
            let needed = written == 0 ? length : length + 1
            guard written + needed <= min(buffer.count, Self.nameLimit) else { return nil }
            if written > 0 {
                buffer[written] = UInt8(ascii: ".")
                written += 1
            }
            for index in 1...length {
                buffer[written] = Self.lower(bytes[start + index])
                written += 1
            }
            position = start + 1 + length
        }
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
