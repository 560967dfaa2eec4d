import Testing

@testable import DrainImport

/// `HTTPHead` reads a plain HTTP/1.x head in place; each test names a line or header shape a
/// capture can carry and the ranges it must give.
struct HTTPHeadTests {
    private struct Parsed {
        let head: HTTPHead
        let bytes: [UInt8]
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    }

    private func parse(_ text: String) -> Parsed? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { HTTPHead($0) }.map { Parsed(head: $0, bytes: bytes) }
    }

    @Test func aRequestGivesMethodTargetAndTheFourHeaders() throws {
        let text =
            "POST /v1/items?page=2 HTTP/1.1\r\nHost: api.example.com\r\nContent-Type: application/json\r\n"
            + "Content-Encoding: gzip\r\nContent-Length: 42\r\nAccept: */*\r\n\r\nbody"
        let parsed = try #require(parse(text))
        #expect(parsed.head.isRequest)
        #expect(parsed.text(parsed.head.method) == "POST")
        #expect(parsed.text(parsed.head.target) == "/v1/items?page=2")
        #expect(parsed.text(parsed.head.host) == "api.example.com")
        #expect(parsed.text(parsed.head.contentType) == "application/json")
        #expect(parsed.text(parsed.head.contentEncoding) == "gzip")
        #expect(parsed.head.contentLength == 42)
        #expect(parsed.head.bodyStart == text.utf8.count - 4)
    }

    @Test func aResponseGivesItsStatus() throws {
        let parsed = try #require(parse("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"))
        #expect(!parsed.head.isRequest)
        #expect(parsed.head.status == 204)
        #expect(parsed.head.contentLength == 0)
        #expect(parsed.head.bodyStart == parsed.bytes.count)
    }

    @Test func namesIgnoreCaseValuesLoseSurroundingBlanksAndKeepLaterColons() throws {
        let parsed = try #require(parse("GET / HTTP/1.0\nHOST:\t example.com:8080 \t\ncOnTeNt-TyPe:text/plain\n\n"))
        #expect(parsed.text(parsed.head.host) == "example.com:8080")
        #expect(parsed.text(parsed.head.contentType) == "text/plain")
        #expect(parsed.head.bodyStart == parsed.bytes.count)
    }

    @Test func aLineWithoutAColonIsSkipped() throws {
        let parsed = try #require(parse("GET /a HTTP/1.1\r\nnot a header\r\nHost: h\r\n\r\n"))
        #expect(parsed.text(parsed.head.host) == "h")
    }

    @Test func aHeadCutBeforeItsBlankLineHasNoBody() throws {
        // The last line has no line feed, and no blank line ends the head.
        let cut = try #require(parse("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Le"))
        #expect(cut.head.bodyStart == nil)
        #expect(cut.text(cut.head.contentType) == "text/html")
        #expect(cut.head.contentLength == -1)
        let lineEndsAtTheLastByte = try #require(parse("HTTP/1.1 200 OK\r\nHost: h\r\n"))
        #expect(lineEndsAtTheLastByte.head.bodyStart == nil)
    }

    @Test func aContentLengthThatIsNotAShortNumberIsUnknown() throws {
        #expect(parse("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n")?.head.contentLength == -1)
        #expect(parse("HTTP/1.1 200 OK\r\nContent-Length: 1234567890123456789\r\n\r\n")?.head.contentLength == -1)
        #expect(parse("HTTP/1.1 200 OK\r\nContent-Length: 123456789012345678\r\n\r\n")?.head.contentLength == 123_456_789_012_345_678)
    }

    @Test(arguments: [
        "", "HTTP/1.1 200", "HTTP/1.1 099 Too low\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n", "HTTP/1.1 200 OK",
        "GET  HTTP/1.1\r\n\r\n", "GET /path HTTP/2\r\n\r\n", "FETCH /path HTTP/1.1\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\u{00}",
    ])
    func whatIsNotAnHTTPHeadIsRefused(text: String) {
        #expect(parse(text) == nil)
    }
}
