import Foundation
import Testing

@testable import DrainImport

/// `IPAddress.text` writes IPv4 itself; it must read exactly as the C library's `inet_ntop`.
struct IPAddressTextTests {
    @Test(arguments: [
        (UInt32(0), "0.0.0.0"), (0xFFFF_FFFF, "255.255.255.255"), (0xC0A8_0102, "192.168.1.2"),
        (0x0A00_0001, "10.0.0.1"), (0x0809_0A63, "8.9.10.99"), (0x6465_C7C8, "100.101.199.200"),
    ])
    func writesDottedDecimal(value: UInt32, text: String) {
        #expect(IPAddress(v4: value).text == text)
    }

    @Test func matchesInetNtopOnEveryOctetAndRandomAddresses() {
        var generator = SystemRandomNumberGenerator()
        // Every octet value in every position, then random addresses.
        var values: [UInt32] = (0..<256).flatMap { octet in (0..<4).map { UInt32(octet) << UInt32(8 * $0) } }
        values += (0..<20_000).map { _ in UInt32.random(in: .min ... .max, using: &generator) }
        for value in values {
            var address = in_addr(s_addr: value.bigEndian)
            var buffer = [CChar](repeating: 0, count: 16)
            #expect(inet_ntop(AF_INET, &address, &buffer, 16) != nil)
            let expected = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let text = IPAddress(v4: value).text
            if text != expected {
                Issue.record("\(value): \(text) != \(expected)")
                return
            }
        }
    }

    @Test func leavesIPv6ToInetNtop() {
        #expect(IPAddress(text: "2001:db8::1")?.text == "2001:db8::1")
        #expect(IPAddress(text: "::ffff:1.2.3.4").map(\.isV4) == true)
        #expect(IPAddress(text: "fe80::1:2")?.text == "fe80::1:2")
    }
}
