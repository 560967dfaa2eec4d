import DrainImport
import DrainTestSupport
import DrainTrace
import Testing

/// Endpoint names from DNS answers, TLS server names and HTTP heads; hostile names stay data.
@Suite struct CaptureNamingTests {
    let resolver = "192.168.1.1"

    func capture(_ packets: [[UInt8]]) -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for (index, ip) in packets.enumerated() { writer.add(at: 1_700_000_000 + Double(index) * 0.5, Frame.ethernet(ip)) }
        return writer.bytes
    }

    func dnsAnswer(_ message: [UInt8]) -> [UInt8] {
        IPPacket.udp(from: resolver, 53, to: deviceV4, 53000, message)
    }

    func syn(to address: String, port: UInt16 = 443, from sourcePort: UInt16 = 50000) -> [UInt8] {
        IPPacket.tcp(from: address.contains(":") ? "2001:db8::2" : deviceV4, sourcePort, to: address, port, seq: 1, flags: IPPacket.syn)
    }

    @Test func dnsAnswersNameTheAddressesOfTheQuestionThroughCNAMEChains() throws {
        let ordered = DNS.response(
            question: "API.Example.com",
            answers: [
                .cname("api.example.com", "edge.cdn.example.net"), .cname("edge.cdn.example.net", "e1.cdn.example.net"),
                .a("e1.cdn.example.net", serverV4), .aaaa("e1.cdn.example.net", "2001:db8:1::443"),
                .a("other.example.org", "203.0.113.9"),
            ])
        // Answers in reverse order: the chain is followed whatever the order.
        let reversed = DNS.response(
            question: "img.example.com",
            answers: [.a("img2.cdn.example.net", "198.51.100.20"), .cname("img.example.com", "img2.cdn.example.net")])
        let input = try importCapture(
            capture([
                dnsAnswer(ordered), dnsAnswer(reversed), syn(to: serverV4), syn(to: "203.0.113.9"), syn(to: "2001:db8:1::443"),
                syn(to: "198.51.100.20"),
            ]))
        let endpoints = input.timeline.flows.endpoint.dropFirst().map(input.text)
        #expect(endpoints == ["api.example.com", "203.0.113.9", "api.example.com", "img.example.com"])
        #expect(input.timeline.flows.flags[0].contains(.dns))
        #expect(input.diagnostic("unreadable-payload") == nil)
    }

    @Test func compressionLoopsAndBadPointersEndTheWalkWithoutANAme() throws {
        // The question's name is a pointer to itself; the answer's owner points at it.
        let loop: [UInt8] = [0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]
            + [0xC0, 0x0C, 0, 1, 0, 1]
            + [0xC0, 0x0C, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 198, 51, 100, 7]
        // A pointer past the end of the message as the answer's owner.
        let wild: [UInt8] = [0x12, 0x35, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]
            + [1, 0x61, 0, 0, 1, 0, 1]
            + [0xC0, 0xFF, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 198, 51, 100, 8]
        // An answer cut short: its data runs past the message.
        let cut = Array(DNS.response(question: "cut.example", answers: [.a("cut.example", "198.51.100.9")]).dropLast(2))
        let input = try importCapture(
            capture([
                dnsAnswer(loop), dnsAnswer(wild), dnsAnswer(cut), syn(to: "198.51.100.7"), syn(to: "198.51.100.8"),
                syn(to: "198.51.100.9"),
            ]))
        #expect(input.timeline.flows.endpoint.dropFirst().map(input.text) == ["198.51.100.7", "198.51.100.8", "198.51.100.9"])
        let unreadable = try #require(input.diagnostic("unreadable-payload"))
        #expect(unreadable.count == 1)
        #expect(unreadable.location == "packet 3")
    }

    @Test func theTLSServerNameNamesTheConnectionFromItsFirstPacket() throws {
        let hello = TLS.clientHello(serverName: "API.Example.COM")
        let input = try importCapture(
            capture([
                dnsAnswer(DNS.response(question: "cdn.example.net", answers: [.a("cdn.example.net", serverV4)])),
                synV4(),
                IPPacket.tcp(from: serverV4, 443, to: deviceV4, 50000, seq: 9000, ack: 1001, flags: IPPacket.syn | IPPacket.ack),
                IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1001, ack: 9001, flags: IPPacket.psh | IPPacket.ack, hello),
                IPPacket.tcp(from: serverV4, 443, to: deviceV4, 50000, seq: 9001, ack: 1001 + UInt32(hello.count), flags: IPPacket.ack, TLS.serverHello()),
            ]))
        let flow = try #require(input.timeline.flows.connection.firstIndex { input.text($0) == connectionV4 })
        #expect(input.text(input.timeline.flows.endpoint[flow]) == "api.example.com")
        #expect(input.timeline.flows.flags[flow].contains(.tls))
        #expect(input.timeline.flows.flags[flow].contains(.syn))
        // The SYN, seen before the name, carries it too.
        let synRow = try #require(input.timeline.label2.firstIndex { input.text($0) == connectionV4 })
        #expect(input.timeline.time[synRow] == 500_000_000)
        #expect(input.text(input.timeline.label[synRow]) == "api.example.com")
        #expect(input.timeline.flows.http.count == 0)
    }

    @Test func aClientHelloSplitOverTwoSegmentsIsReassembled() throws {
        let hello = TLS.clientHello(serverName: "split.example.com", paddingBytes: 1500)
        let first = Array(hello[0..<1000])
        let second = Array(hello[1000...])
        let otherPort: UInt16 = 50001
        let input = try importCapture(
            capture([
                IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1, flags: IPPacket.ack, first),
                IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1001, flags: IPPacket.ack, second),
                // The same hello with its second segment missing: no name, no crash.
                IPPacket.tcp(from: deviceV4, otherPort, to: serverV4, 443, seq: 1, flags: IPPacket.ack, first),
                IPPacket.tcp(from: deviceV4, otherPort, to: serverV4, 443, seq: 5001, flags: IPPacket.ack, second),
            ]))
        #expect(input.timeline.flows.endpoint.map(input.text) == ["split.example.com", serverV4])
    }

    @Test func httpHeadsGiveMethodPathHostTypesLengthsAndBodies() throws {
        let body = [UInt8](repeating: 0x7B, count: 2500)
        let request = HTTP.request(
            "POST", "/api/v1/upload?x=1",
            headers: [("Host", "Upload.Example.com"), ("Content-Type", "application/json"), ("Content-Length", "2500")])
        let response = HTTP.response(
            200, headers: [("content-type", "text/html; charset=utf-8"), ("Content-Encoding", "identity"), ("Content-Length", "5")],
            body: Array("hello".utf8))
        let next = HTTP.request("GET", "/next", headers: [("Host", "upload.example.com")])
        let server = "203.0.113.80"
        let head = request + body[0..<1000]
        let input = try importCapture(
            capture([
                IPPacket.tcp(from: deviceV4, 50000, to: server, 80, seq: 1, flags: IPPacket.syn),
                IPPacket.tcp(from: deviceV4, 50000, to: server, 80, seq: 2, flags: IPPacket.ack, Array(head)),
                IPPacket.tcp(from: deviceV4, 50000, to: server, 80, seq: 2 + UInt32(head.count), flags: IPPacket.ack, Array(body[1000...])),
                IPPacket.tcp(from: server, 80, to: deviceV4, 50000, seq: 1, flags: IPPacket.ack, response),
                IPPacket.tcp(from: deviceV4, 50000, to: server, 80, seq: 2 + UInt32(head.count + 1500), flags: IPPacket.ack, next),
            ]))
        let http = input.timeline.flows.http
        #expect(http.count == 3)
        #expect(http.isRequest == [true, false, true])
        #expect(http.method.map(input.text) == ["POST", "", "GET"])
        // The response has the path of the request it answers.
        #expect(http.path.map(input.text) == ["/api/v1/upload?x=1", "/api/v1/upload?x=1", "/next"])
        #expect(Array(http.status) == [0, 200, 0])
        #expect(http.host.map(input.text) == ["upload.example.com", "", "upload.example.com"])
        #expect(http.contentType.map(input.text) == ["application/json", "text/html; charset=utf-8", ""])
        #expect(http.contentEncoding.map(input.text) == ["", "identity", ""])
        #expect(Array(http.contentLength) == [2500, 5, -1])
        #expect(http.bodyBytes == [2500, 5, 0])
        #expect(http.time == [500_000_000, 1_500_000_000, 2_000_000_000])
        #expect(http.flow == [0, 0, 0])
        #expect(input.text(input.timeline.flows.endpoint[0]) == "upload.example.com")
        #expect(input.timeline.flows.flags[0].contains(.http))
    }

    /// Only the messages NET-UNCOMPRESSED can read are kept: those whose head says the body may
    /// be plain text sent uncompressed, and the next of the same kind on the flow after each. A
    /// response has the path of the request it answers (the n-th response the n-th request, if
    /// that came first), whether that request was kept or not.
    @Test func httpMessagesKeptAreThoseTheUncompressedRuleReads() throws {
        let server = "203.0.113.81"
        var up: UInt32 = 1, down: UInt32 = 1
        func request(_ method: String, _ path: String, type: String? = nil, port: UInt16 = 50010) -> [UInt8] {
            let bytes = HTTP.request(method, path, headers: [("Host", "api.example")] + (type.map { [("Content-Type", $0)] } ?? []))
            defer { up += UInt32(bytes.count) }
            return IPPacket.tcp(from: deviceV4, port, to: server, 80, seq: up, flags: IPPacket.ack, bytes)
        }
        func more(port: UInt16) -> [UInt8] {
            defer { down += 2 }
            return IPPacket.tcp(from: server, 80, to: deviceV4, port, seq: down, flags: IPPacket.ack, Array("{}".utf8))
        }
        func response(type: String, encoding: String? = nil, port: UInt16 = 50010) -> [UInt8] {
            let bytes = HTTP.response(
                200, headers: [("Content-Type", type), ("Content-Length", "2")] + (encoding.map { [("Content-Encoding", $0)] } ?? []),
                body: Array("{}".utf8))
            defer { down += UInt32(bytes.count) }
            return IPPacket.tcp(from: server, 80, to: deviceV4, port, seq: down, flags: IPPacket.ack, bytes)
        }
        let packets = [
            request("GET", "/a"),  // not text, no request before it: not kept
            response(type: "application/json", encoding: "gzip"),  // encoded: not kept
            request("POST", "/b", type: "application/json"),  // text: kept
            response(type: "text/plain"),  // text: kept, path /b
            request("GET", "/c"),  // after a text request: kept
            response(type: "image/png"),  // after a text response: kept, path /c
            request("GET", "/d"),  // not kept
            response(type: "image/png"),  // not kept
            // Another connection whose first response came before any request: the n-th
            // response still answers the n-th request.
            response(type: "text/html", port: 50011),  // kept, answers nothing
            request("GET", "/x", port: 50011),  // not kept; the first request, after the first response
            more(port: 50011),  // more of the first response's body
            request("GET", "/y", port: 50011),  // not kept; the second request
            response(type: "text/plain", port: 50011),  // kept: the second response, answering /y
        ]
        let input = try importCapture(capture(packets))
        let http = input.timeline.flows.http
        #expect(http.isRequest == [true, false, true, false, false, false])
        #expect(http.method.map(input.text) == ["POST", "", "GET", "", "", ""])
        #expect(http.path.map(input.text) == ["/b", "/b", "/c", "/c", "", "/y"])
        #expect(http.contentType.map(input.text) == ["application/json", "text/plain", "", "image/png", "text/html", "text/plain"])
        #expect(http.time == [1, 1.5, 2, 2.5, 4, 6].map { Clock.nanoseconds($0) })
        #expect(http.flow == [0, 0, 0, 0, 1, 1])
        // Body bytes go to the kept message of their direction.
        #expect(http.bodyBytes == [0, 2, 0, 2, 4, 2])
        #expect(input.timeline.flows.flags.allSatisfy { $0.contains(.http) })
    }

    @Test func hostileNamesSurviveAsData() throws {
        let dnsName = "evil\u{1B}[31m.<b>x</b>.example"
        let sniName = "x\"><script>alert(1)</script>"
        let hostName = "h\u{7}st.example\u{1B}]0;title"
        let input = try importCapture(
            capture([
                dnsAnswer(DNS.response(question: dnsName, answers: [.a(dnsName, "198.51.100.1")])),
                syn(to: "198.51.100.1"),
                IPPacket.tcp(from: deviceV4, 50001, to: "198.51.100.2", 443, seq: 1, flags: IPPacket.ack, TLS.clientHello(serverName: sniName)),
                IPPacket.tcp(from: deviceV4, 50002, to: "198.51.100.3", 80, seq: 1, flags: IPPacket.ack, HTTP.request("POST", "/<script>alert(1)</script>", headers: [("Host", hostName), ("Content-Type", "text/plain")])),
            ]))
        #expect(input.timeline.flows.endpoint.dropFirst().map(input.text) == [dnsName, sniName, hostName])
        #expect(input.timeline.flows.http.path.map(input.text) == ["/<script>alert(1)</script>"])
    }
}
