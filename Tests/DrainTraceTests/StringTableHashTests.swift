import Testing

@testable import DrainTrace

/// A hostile input cannot choose strings that share one hash in a string table: strings built
/// to share one FNV-1a hash (the table's hash until session 41) get hashes of their own, and
/// intern to ids of their own.
struct StringTableHashTests {
    private static let fnvOffset: UInt32 = 2_166_136_261

    private static func fnv1a(_ bytes: [UInt8], from start: UInt32 = fnvOffset) -> UInt32 {
        bytes.reduce(start) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

    /// 2^`stages` host names with one FNV-1a hash, built as Joux's multicollisions: each stage
    /// draws 8-letter blocks until two lead from the state reached so far to one state (a
    /// birthday search, about 100,000 blocks), and every name so far is extended by either.
    /// The draws are SplitMix64's from a fixed seed, so the names are the same every run.
    private static func namesSharingOneFNVHash(stages: Int) -> [[UInt8]] {
        var state = fnvOffset
        var names: [[UInt8]] = [[]]
        var seed: UInt64 = 41
        func draw() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func block(_ bits: UInt64) -> [UInt8] {
            (0..<8).map { UInt8(ascii: "a") + UInt8((bits >> (8 * UInt64($0))) & 0xFF) % 26 }
        }
        for _ in 0..<stages {
            var seen: [UInt32: UInt64] = [:]
            while true {
                let bits = draw()
                let candidate = block(bits)
                let reached = fnv1a(candidate, from: state)
                if let other = seen[reached].map(block), other != candidate {
                    names = names.flatMap { [$0 + other, $0 + candidate] }
                    state = reached
                    break
                }
                seen[reached] = bits
            }
        }
        return names.map { $0 + Array(".example".utf8) }
    }

    @Test func namesBuiltToShareOneFNVHashGetHashesOfTheirOwn() {
        let names = Self.namesSharingOneFNVHash(stages: 6)
        #expect(names.count == 64)
        #expect(Set(names).count == 64)
        #expect(Set(names.map { Self.fnv1a($0) }).count == 1)
        let hashes = Set(names.map { name in name.withUnsafeBytes { StringTable.hash($0) } })
        // Two of 64 random 32-bit hashes are equal with a chance of about 1 in 2 million.
        #expect(hashes.count >= 63)
        var table = StringTable()
        let ids = names.map { name in name.withUnsafeBytes { table.intern($0) } }
        #expect(Set(ids).count == 64)
        #expect(ids.indices.allSatisfy { table[ids[$0]] == String(decoding: names[$0], as: UTF8.self) })
    }
}
