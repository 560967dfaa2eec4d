#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTraceWriter

/// An IPv4 or IPv6 address in 128 bits. IPv4 addresses are stored IPv4-mapped
/// (`::ffff:a.b.c.d`), so both families share one fixed-size, hashable value.
struct IPAddress: Hashable, Comparable, Sendable {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(v4 value: UInt32) {
        high = 0
        low = 0xFFFF_0000_0000 | UInt64(value)
    }

    /// Reads an IPv4 address (4 bytes) or IPv6 address (16 bytes) at `offset`, which the caller
    /// has bounds-checked.
    @inline(__always)
    static func v4(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> IPAddress {
        IPAddress(v4: bytes.u32(at: offset))
    }

    @inline(__always)
    static func v6(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> IPAddress {
        IPAddress(high: bytes.u64(at: offset), low: bytes.u64(at: offset + 8))
    }

    var isV4: Bool { high == 0 && low >> 32 == 0xFFFF }

    private var v4Value: UInt32 { UInt32(truncatingIfNeeded: low) }

    static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }

    /// What kind of address this is, for finding the device side of flows.
    enum Scope: UInt8, Sendable {
        /// 0.0.0.0/8, ::
        case unspecified
        /// 127.0.0.0/8, ::1
        case loopback
        /// 169.254.0.0/16, fe80::/10
        case linkLocal
        /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT, what phones get on
        /// cellular), fc00::/7 (unique local)
        case privateNetwork
        /// 224.0.0.0/4, 255.255.255.255, ff00::/8
        case multicast
        /// everything else
        case global
    }

    var scope: Scope {
        if isV4 {
            let value = v4Value
            switch value >> 24 {
            case 0: return .unspecified
            case 127: return .loopback
            case 10: return .privateNetwork
            case 224...239: return .multicast
            default: break
            }
            if value == 0xFFFF_FFFF { return .multicast }
            if value >> 16 == 0xA9FE { return .linkLocal }
            if value >> 20 == 0xAC1 || value >> 16 == 0xC0A8 || value >> 22 == 0x191 { return .privateNetwork }
            return .global
        }
        if high == 0 && low == 0 { return .unspecified }
        if high == 0 && low == 1 { return .loopback }
        switch high >> 56 {
        case 0xFF: return .multicast
        case 0xFC, 0xFD: return .privateNetwork
        case 0xFE where (high >> 54) & 0x3 == 0x2: return .linkLocal
        default: return .global
        }
    }

    /// Whether traffic to or from this address stays on the local link and so never crosses a
    /// cellular radio: multicast and broadcast (SSDP, mDNS, LLMNR, DHCP, IPv6 neighbour and
    /// router discovery) and link-local addresses (GUIDANCE.md, *Local traffic*).
    var isLocalOnly: Bool {
        let scope = scope
        return scope == .multicast || scope == .linkLocal
    }

    /// Whether the address belongs to one host (not multicast, broadcast or unspecified).
    var isUnicast: Bool {
        let scope = scope
        return scope != .multicast && scope != .unspecified
    }

    /// The address in its usual text form: `192.168.1.2`, `2001:db8::1` (RFC 5952).
    var text: String {
        var line = JSONLine(capacity: 48)
        appendText(to: &line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// Appends `text`'s UTF-8 to `line`, with no `String` in between: a capture's flows are
    /// labelled by the ten thousand, straight into the string table. IPv4 is written here
    /// (glibc's `inet_ntop` formats it with `sprintf`); IPv6, with its zero-run rules, by
    /// `inet_ntop`. At most 45 bytes.
    func appendText(to line: inout JSONLine) {
        guard isV4 else {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                var address = (high.bigEndian, low.bigEndian)
                guard inet_ntop(AF_INET6, &address, buffer.baseAddress, 64) != nil else {
                    line.byte(UInt8(ascii: "?"))
                    return
                }
                line.raw(UnsafeRawBufferPointer(start: buffer.baseAddress, count: strlen(buffer.baseAddress!)))
            }
            return
        }
        for shift in stride(from: 24, through: 0, by: -8) {
            if shift != 24 { line.byte(UInt8(ascii: ".")) }
            line.unsigned(UInt64((v4Value >> UInt32(shift)) & 0xFF))
        }
    }

    /// Parses `192.168.1.2` or `2001:db8::1`; `nil` for anything else.
    init?(text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(v4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var bytes: (UInt64, UInt64) = (0, 0)
        guard inet_pton(AF_INET6, text, &bytes) == 1 else { return nil }
        self.init(high: UInt64(bigEndian: bytes.0), low: UInt64(bigEndian: bytes.1))
    }
}
