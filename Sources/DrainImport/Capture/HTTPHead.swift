/// Reads the head of a plain HTTP/1.x request or response at the start of a TCP payload, in
/// place: the request line or status line, and the Host, Content-Type, Content-Encoding and
/// Content-Length headers. Ranges index the payload; nothing is copied.
struct HTTPHead {
    var isRequest = true
    var method: Range<Int> = 0..<0
    var target: Range<Int> = 0..<0
    var status: UInt16 = 0
    var host: Range<Int> = 0..<0
    var contentType: Range<Int> = 0..<0
    var contentEncoding: Range<Int> = 0..<0
    var contentLength: Int64 = -1
    /// Where the body starts, or `nil` if the head continues past the captured bytes.
    var bodyStart: Int?

    /// The longest request target kept.
    static let targetLimit = 1024

    private static let methods: [StaticString] = [
        "GET ", "POST ", "PUT ", "HEAD ", "DELETE ", "PATCH ", "OPTIONS ", "CONNECT ", "TRACE ",
    ]

    /// Reads a head, or returns `nil` if the payload does not start with one. O(head length).
    init?(_ payload: UnsafeRawBufferPointer) {
        guard payload.count >= 12 else { return nil }
        var position: Int
        if Self.starts(payload, at: 0, with: "HTTP/1.") {
            guard payload[8] == 0x20, let code = Self.digits(payload, 9..<12), code >= 100, code <= 999 else { return nil }
            isRequest = false
            status = UInt16(code)
            guard let end = Self.lineEnd(payload, from: 12) else { return nil }
            position = end
        } else {
            guard let method = Self.methods.first(where: { Self.starts(payload, at: 0, with: $0) }) else { return nil }
            let methodLength = method.utf8CodeUnitCount - 1
            self.method = 0..<methodLength
            let targetStart = methodLength + 1
            var targetEnd = targetStart
            while targetEnd < payload.count, payload[targetEnd] != 0x20, payload[targetEnd] != 0x0D, payload[targetEnd] != 0x0A {
                targetEnd += 1
            }
            guard targetEnd > targetStart else { return nil }
            target = targetStart..<min(targetEnd, targetStart + Self.targetLimit)
            guard targetEnd + 9 <= payload.count, Self.starts(payload, at: targetEnd + 1, with: "HTTP/1.") else { return nil }
            guard let end = Self.lineEnd(payload, from: targetEnd) else { return nil }
            position = end
        }
        while position < payload.count {
            guard let end = Self.lineEnd(payload, from: position) else { return }
            var contentEnd = end - 1
            if contentEnd > position, payload[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            if contentEnd == position {
                bodyStart = end
                return
            }
            header(payload, position..<contentEnd)
            position = end
        }
    }

    private mutating func header(_ payload: UnsafeRawBufferPointer, _ line: Range<Int>) {
        guard let colon = line.first(where: { payload[$0] == UInt8(ascii: ":") }) else { return }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, payload[valueStart] == 0x20 || payload[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, payload[valueEnd - 1] == 0x20 || payload[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        let name = line.lowerBound..<colon
        let value = valueStart..<valueEnd
        if Self.named(payload, name, "host") {
            host = value
        } else if Self.named(payload, name, "content-type") {
            contentType = value
        } else if Self.named(payload, name, "content-encoding") {
            contentEncoding = value
        } else if Self.named(payload, name, "content-length") {
            contentLength = value.count <= 18 ? Self.digits(payload, value).map(Int64.init) ?? -1 : -1
        }
    }

    /// The offset after the next line feed at or after `start`, or `nil` if there is none.
    private static func lineEnd(_ payload: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index < payload.count {
            if payload[index] == 0x0A { return index + 1 }
            index += 1
        }
        return nil
    }

    private static func starts(_ payload: UnsafeRawBufferPointer, at offset: Int, with prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard offset + length <= payload.count else { return false }
        return prefix.withUTF8Buffer { expected in
            (0..<length).allSatisfy { payload[offset + $0] == expected[$0] }
        }
    }

    /// Whether a header name equals `expected` (lowercase), ignoring ASCII case.
    private static func named(_ payload: UnsafeRawBufferPointer, _ name: Range<Int>, _ expected: StaticString) -> Bool {
        guard name.count == expected.utf8CodeUnitCount else { return false }
        return expected.withUTF8Buffer { expected in
            (0..<name.count).allSatisfy { DNSMessage.lower(payload[name.lowerBound + $0]) == expected[$0] }
        }
    }

    /// The decimal number in `range`, or `nil` if it is empty or holds anything but digits.
    private static func digits(_ payload: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value = 0
        for index in range {
            let byte = payload[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
