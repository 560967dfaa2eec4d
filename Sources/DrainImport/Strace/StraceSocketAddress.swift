/// The transport of an internet socket, as the connection labels name it.
enum StraceTransport: UInt8 {
    case tcp, udp

    var name: StaticString { self == .tcp ? "tcp" : "udp" }
}

/// A socket address as strace decodes it, e.g.
/// `{sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("93.184.216.34")}` or
/// `{sa_family=AF_INET6, sin6_port=htons(443), …, inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), …}`.
struct StraceSocketAddress {
    enum Family { case inet, inet6, unix, other }

    var family: Family
    /// The address text (inside the quotes), for `inet` and `inet6`.
    var address: Range<Int>?
    var port: Int?

    /// Reads the address in `range`; nil if it is not a decoded socket address (`NULL`, a
    /// pointer, a struct strace could not read).
    static func parse(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> StraceSocketAddress? {
        guard let familyAt = StraceSyntax.firstIndex(of: "sa_family=", in: bytes, range) else { return nil }
        let familyStart = familyAt + 10
        let family: Family
        if StraceSyntax.matches(bytes, at: familyStart, end: range.upperBound, "AF_INET6") {
            family = .inet6
        } else if StraceSyntax.matches(bytes, at: familyStart, end: range.upperBound, "AF_INET") {
            family = .inet
        } else if StraceSyntax.matches(bytes, at: familyStart, end: range.upperBound, "AF_UNIX")
            || StraceSyntax.matches(bytes, at: familyStart, end: range.upperBound, "AF_LOCAL")
        {
            family = .unix
        } else {
            family = .other
        }
        var result = StraceSocketAddress(family: family)
        guard family == .inet || family == .inet6 else { return result }
        let rest = familyStart..<range.upperBound
        if let portAt = StraceSyntax.firstIndex(of: "port=htons(", in: bytes, rest),
            let (port, _) = StraceSyntax.leadingInteger(bytes, from: portAt + 11, to: range.upperBound), (0...65535).contains(port)
        {
            result.port = Int(port)
        }
        if let quote = StraceSyntax.firstIndex(of: "\"", in: bytes, rest) {
            let end = StraceSyntax.stringEnd(bytes, from: quote, to: range.upperBound)
            if end > quote + 2 { result.address = quote + 1..<end - 1 }
        }
        return result
    }

    init(family: Family, address: Range<Int>? = nil, port: Int? = nil) {
        self.family = family
        self.address = address
        self.port = port
    }

    /// Appends `1.2.3.4:443` or `[2001:db8::1]:443` (the form of the capture importer's
    /// connection labels) to `output`; false, appending nothing, without an address.
    func appendEndpoint(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) -> Bool {
        guard let address else { return false }
        let bracketed = family == .inet6
        if bracketed { output.append(ASCII.openBracket) }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[address]))
        if bracketed { output.append(ASCII.closeBracket) }
        if let port {
            output.append(ASCII.colon)
            output.append(contentsOf: String(port).utf8)
        }
        return true
    }
}

/// Endpoint text as strace's `-yy` socket annotations write it: `127.0.0.1:54052`,
/// `[::1]:8765`.
enum StraceEndpoint {
    /// The host part of an endpoint: the address without its port and brackets.
    static func host(_ bytes: UnsafeRawBufferPointer, _ endpoint: Range<Int>) -> Range<Int> {
        if endpoint.lowerBound < endpoint.upperBound, bytes[endpoint.lowerBound] == ASCII.openBracket {
            var index = endpoint.lowerBound + 1
            while index < endpoint.upperBound, bytes[index] != ASCII.closeBracket { index += 1 }
            return endpoint.lowerBound + 1..<index
        }
        var index = endpoint.upperBound
        while index > endpoint.lowerBound, bytes[index - 1] != ASCII.colon { index -= 1 }
        return index > endpoint.lowerBound ? endpoint.lowerBound..<index - 1 : endpoint
    }

    /// Whether a host is a loopback address: `127.0.0.0/8`, `::1`, or IPv4-mapped loopback.
    static func isLoopback(_ host: UnsafeRawBufferPointer) -> Bool {
        StraceSyntax.matches(host, at: 0, end: host.count, "127.")
            || (host.count == 3 && StraceSyntax.matches(host, at: 0, end: host.count, "::1"))
            || StraceSyntax.matches(host, at: 0, end: host.count, "::ffff:127.")
    }
}
