import Crypto
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// QUIC flows named by the server name of the client's hello: decrypted from version 1,
/// version 2, draft-29 and Q050 Initial packets, read in the clear from older Google QUIC.
@Suite struct CaptureQUICNamingTests {
    /// RFC 9001 Appendix A: the client's Destination Connection ID.
    static let rfcDestinationID = hexBytes("8394c8f03e515708")
    let device = "192.168.1.2"
    let server = "198.51.100.7"

    /// RFC 9001 Appendix A.2: the protected client Initial (1200 bytes).
    static let rfc9001ClientInitial = hexBytes(
        """
        c000000001088394c8f03e5157080000 449e7b9aec34d1b1c98dd7689fb8ec11
        d242b123dc9bd8bab936b47d92ec356c 0bab7df5976d27cd449f63300099f399
        1c260ec4c60d17b31f8429157bb35a12 82a643a8d2262cad67500cadb8e7378c
        8eb7539ec4d4905fed1bee1fc8aafba1 7c750e2c7ace01e6005f80fcb7df6212
        30c83711b39343fa028cea7f7fb5ff89 eac2308249a02252155e2347b63d58c5
        457afd84d05dfffdb20392844ae81215 4682e9cf012f9021a6f0be17ddd0c208
        4dce25ff9b06cde535d0f920a2db1bf3 62c23e596d11a4f5a6cf3948838a3aec
        4e15daf8500a6ef69ec4e3feb6b1d98e 610ac8b7ec3faf6ad760b7bad1db4ba3
        485e8a94dc250ae3fdb41ed15fb6a8e5 eba0fc3dd60bc8e30c5c4287e53805db
        059ae0648db2f64264ed5e39be2e20d8 2df566da8dd5998ccabdae053060ae6c
        7b4378e846d29f37ed7b4ea9ec5d82e7 961b7f25a9323851f681d582363aa5f8
        9937f5a67258bf63ad6f1a0b1d96dbd4 faddfcefc5266ba6611722395c906556
        be52afe3f565636ad1b17d508b73d874 3eeb524be22b3dcbc2c7468d54119c74
        68449a13d8e3b95811a198f3491de3e7 fe942b330407abf82a4ed7c1b311663a
        c69890f4157015853d91e923037c227a 33cdd5ec281ca3f79c44546b9d90ca00
        f064c99e3dd97911d39fe9c5d0b23a22 9a234cb36186c4819e8b9c5927726632
        291d6a418211cc2962e20fe47feb3edf 330f2c603a9d48c0fcb5699dbfe58964
        25c5bac4aee82e57a85aaf4e2513e4f0 5796b07ba2ee47d80506f8d2c25e50fd
        14de71e6c418559302f939b0e1abd576 f279c4b2e0feb85c1f28ff18f58891ff
        ef132eef2fa09346aee33c28eb130ff2 8f5b766953334113211996d20011a198
        e3fc433f9f2541010ae17c1bf202580f 6047472fb36857fe843b19f5984009dd
        c324044e847a4f4a0ab34f719595de37 252d6235365e9b84392b061085349d73
        203a4a13e96f5432ec0fd4a1ee65accd d5e3904df54c1da510b0ff20dcc0c77f
        cb2c0e0eb605cb0504db87632cf3d8b4 dae6e705769d1de354270123cb11450e
        fc60ac47683d7b8d0f811365565fd98c 4c8eb936bcab8d069fc33bd801b03ade
        a2e1fbc5aa463d08ca19896d2bf59a07 1b851e6c239052172f296bfb5e724047
        90a2181014f3b94a4e97d117b4381303 68cc39dbb2d198065ae3986547926cd2
        162f40a29f0c3c8745c0f50fba3852e5 66d44575c29d39a03f0cda721984b6f4
        40591f355e12d439ff150aab7613499d bd49adabc8676eef023b15b65bfc5ca0
        6948109f23f350db82123535eb8a7433 bdabcb909271a6ecbcb58b936a88cd4e
        8f2e6ff5800175f113253d8fa9ca8885 c2f552e657dc603f252e1a8e308f76f0
        be79e2fb8f5d5fbbe2e30ecadd220723 c8c0aea8078cdfcb3868263ff8f09400
        54da48781893a7e49ad5aff4af300cd8 04a6b6279ab3ff3afb64491c85194aab
        760d58a606654f9f4400e8b38591356f bf6425aca26dc85244259ff2b19c41b9
        f96f3ca9ec1dde434da7d2d392b905dd f3d1f9af93d1af5950bd493f5aa731b4
        056df31bd267b6b90a079831aaf579be 0a39013137aac6d404f518cfd4684064
        7e78bfe706ca4cf5e9c5453e9f7cfd2b 8b4c8d169a44e55c88d4a9a7f9474241
        e221af44860018ab0856972e194cd934
        """)

    func capture(_ datagrams: [[UInt8]]) -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for (index, ip) in datagrams.enumerated() { writer.add(at: 1_700_000_000 + Double(index) * 0.02, Frame.ethernet(ip)) }
        return writer.bytes
    }

    func fromDevice(_ payload: [UInt8], port: UInt16 = 51000, serverPort: UInt16 = 443) -> [UInt8] {
        IPPacket.udp(from: device, port, to: server, serverPort, payload)
    }

    func fromServer(_ payload: [UInt8], port: UInt16 = 51000, serverPort: UInt16 = 443) -> [UInt8] {
        IPPacket.udp(from: server, serverPort, to: device, port, payload)
    }

    func keyBytes(_ key: SymmetricKey) -> [UInt8] { key.withUnsafeBytes { Array($0) } }

    @Test func version1InitialKeysAreThoseOfRFC9001AppendixA1() {
        let keys = Self.rfcDestinationID.withUnsafeBytes { QUICInitialKeys(version: .version1, destinationID: $0) }
        #expect(keyBytes(keys.key) == hexBytes("1f369613dd76d5467730efcbe3b1a22d"))
        #expect(keys.iv == hexBytes("fa044b2f42a3fd3b46fb255c"))
        #expect(keyBytes(keys.headerProtection) == hexBytes("9f50449e04a0e810283a1e9933adedd2"))
        // The test's own derivation agrees, so the packets it seals below are real ones.
        let fixture = QUICFixture.clientKeys(.v1, destinationID: Self.rfcDestinationID)
        #expect(fixture.key == keyBytes(keys.key) && fixture.iv == keys.iv && fixture.hp == keyBytes(keys.headerProtection))
    }

    @Test func version2InitialKeysAreThoseOfRFC9369AppendixA1() {
        let keys = Self.rfcDestinationID.withUnsafeBytes { QUICInitialKeys(version: .version2, destinationID: $0) }
        #expect(keyBytes(keys.key) == hexBytes("8b1a0bc121284290a29e0971b5cd045d"))
        #expect(keys.iv == hexBytes("91f73e2351d8fa91660e909f"))
        #expect(keyBytes(keys.headerProtection) == hexBytes("45b95e15235d6f45a6b19cbcb0294ba9"))
        let fixture = QUICFixture.clientKeys(.v2, destinationID: Self.rfcDestinationID)
        #expect(fixture.key == keyBytes(keys.key) && fixture.iv == keys.iv && fixture.hp == keyBytes(keys.headerProtection))
    }

    @Test func theClientInitialOfRFC9001AppendixA2OpensToItsCryptoFrame() throws {
        let opened = try Self.rfc9001ClientInitial.withUnsafeBytes { datagram in
            let header = try #require(QUICLongHeader.read(datagram, at: 0))
            #expect(header.isInitial && header.destinationID == 6..<14 && header.packetNumberOffset == 18 && header.end == 1200)
            let keys = QUICInitialKeys(version: header.version, destinationID: datagram.slice(header.destinationID))
            return try #require(QUICInitialDecryptor.open(datagram, header: header, keys: keys, largestPacketNumber: -1))
        }
        // "a packet number of 2", "a 1162-byte payload" beginning with the CRYPTO frame shown.
        #expect(opened.packetNumber == 2)
        #expect(opened.frames.count == 1162)
        #expect(Array(opened.frames.prefix(16)) == hexBytes("060040f1010000ed0303ebf8fa56f129"))
        #expect(opened.frames[4 + 241..<1162].allSatisfy { $0 == 0 })

        // In a capture, its ClientHello names the flow.
        let input = try importCapture(capture([fromDevice(Self.rfc9001ClientInitial)]))
        #expect(input.timeline.flows.endpoint.map(input.text) == ["example.com"])
        #expect(input.timeline.flows.flags[0].contains(.quic))
        #expect(input.diagnostic("unreadable-payload") == nil)
    }

    /// A ClientHello whose name lies past its first 1000 bytes, split over two Initials sent
    /// second half first, with the server's reply (which the client's keys cannot open)
    /// between them.
    func splitHello(_ version: QUICFixture.Version, name: String, clientPort: UInt16 = 51000, serverPort: UInt16 = 443) throws
        -> [[UInt8]]
    {
        let hello = QUICFixture.clientHello(serverName: name, paddingBytes: 1500)
        let destinationID: [UInt8] = [0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A, 0x69, 0x78]
        let later = try QUICFixture.initial(
            version, destinationID: destinationID, packetNumber: 0,
            frames: [0x01] + QUICFixture.cryptoFrame(offset: 1000, Array(hello[1000...])))
        let earlier = try QUICFixture.initial(
            version, destinationID: destinationID, packetNumber: 1, frames: QUICFixture.cryptoFrame(offset: 0, Array(hello[0..<1000])))
        var reply = try QUICFixture.initial(version, destinationID: [0xC1, 0x1E, 0x17], packetNumber: 0, frames: [0x01])
        reply[reply.count - 1] ^= 0xFF
        return [
            fromDevice(later, port: clientPort, serverPort: serverPort), fromServer(reply, port: clientPort, serverPort: serverPort),
            fromDevice(earlier, port: clientPort, serverPort: serverPort),
        ]
    }

    @Test func aVersion1ClientHelloOverTwoInitialsIsReassembled() throws {
        var datagrams = try splitHello(.v1, name: "Video.Example.NET")
        // Without its first part, another flow's hello names nothing.
        datagrams.append(try splitHello(.v1, name: "lost.example.net", clientPort: 51001)[0])
        let input = try importCapture(capture(datagrams))
        #expect(input.timeline.flows.endpoint.map(input.text) == ["video.example.net", server])
        #expect(input.timeline.flows.flags.allSatisfy { $0.contains(.quic) })
        // The name labels every event of the flow, the server's too.
        let rows = input.timeline.label2.indices.filter { input.text(input.timeline.label2[$0]).contains(":51000 ") }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { input.text(input.timeline.label[$0]) == "video.example.net" })
    }

    @Test func aVersion2ClientHelloIsReadOnAnyPort() throws {
        let input = try importCapture(capture(try splitHello(.v2, name: "v2.example.org", serverPort: 4433)))
        #expect(input.timeline.flows.endpoint.map(input.text) == ["v2.example.org"])
        #expect(input.timeline.flows.flags[0].contains(.quic))
        #expect(input.timeline.flows.remotePort == [4433])
    }

    @Test func draft29AndQ050InitialsAreOpenedWithTheirOwnSalts() throws {
        let draft29 = try QUICFixture.initial(
            .draft29, destinationID: [1, 2, 3, 4, 5, 6, 7, 8], packetNumber: 0,
            frames: QUICFixture.cryptoFrame(offset: 0, QUICFixture.clientHello(serverName: "h3-29.example.com")))
        // Q050: a CHLO in a Google QUIC CRYPTO frame (type 8), split in two frames sent out
        // of order, a PING and two bytes of PADDING between them.
        let chlo = QUICFixture.chlo([
            ("PAD", [UInt8](repeating: 0x2D, count: 300)), ("SNI", Array("Q050.Example.com".utf8)), ("VER", Array("Q050".utf8)),
        ])
        let q050 = try QUICFixture.initial(
            .q050, destinationID: [8, 7, 6, 5, 4, 3, 2, 1], packetNumber: 1,
            frames: QUICFixture.cryptoFrame(offset: 100, Array(chlo[100...]), type: 8) + [0x07, 0x00, 0x00]
                + QUICFixture.cryptoFrame(offset: 0, Array(chlo[0..<100]), type: 8))
        // The version 1 keys of the same connection ID do not open a draft-29 packet.
        let mislabelled = try QUICFixture.initial(
            .v1, destinationID: [1, 2, 3, 4, 5, 6, 7, 8], packetNumber: 0,
            frames: QUICFixture.cryptoFrame(offset: 0, QUICFixture.clientHello(serverName: "wrong.example.com")),
            keys: QUICFixture.clientKeys(.draft29, destinationID: [1, 2, 3, 4, 5, 6, 7, 8]))
        let input = try importCapture(
            capture([fromDevice(draft29), fromDevice(q050, port: 51001), fromDevice(mislabelled, port: 51002)]))
        #expect(input.timeline.flows.endpoint.map(input.text) == ["h3-29.example.com", "q050.example.com", server])
        #expect(input.timeline.flows.flags.map { $0.contains(.quic) } == [true, true, true])
    }

    @Test func aGoogleQUICQ043ClientHelloIsReadInTheClear() throws {
        let chlo = QUICFixture.chlo([
            ("PAD", [UInt8](repeating: 0x2D, count: 400)), ("SNI", Array("www.Example.com".utf8)), ("VER", Array("Q043".utf8)),
        ])
        // Public flags: version, 8-byte connection ID, 1-byte packet number; then the
        // connection ID, version, packet number 1, a 12-byte message hash and a STREAM frame
        // (0xa0: 2-byte data length, no offset, 1-byte stream ID) of stream 1.
        let packet: [UInt8] =
            [0x09] + [UInt8](repeating: 0xAB, count: 8) + Array("Q043".utf8) + [1] + [UInt8](repeating: 0x5E, count: 12)
            + [0xA0, 0x01, UInt8(chlo.count >> 8), UInt8(chlo.count & 0xFF)] + chlo
        // A CHLO whose value offsets go backwards: the SNI's end offset (the second tag's,
        // after the 26-byte header, 4-byte frame header and 8-byte message header) cut below PAD's.
        var broken = packet
        broken[26 + 4 + 8 + 8 + 5] = 0
        let input = try importCapture(capture([fromDevice(packet), fromDevice(broken, port: 51001)]))
        #expect(input.timeline.flows.endpoint.map(input.text) == ["www.example.com", server])
        #expect(input.timeline.flows.flags.allSatisfy { $0.contains(.quic) })
        let unreadable = try #require(input.diagnostic("unreadable-payload"))
        #expect(unreadable.count == 1)
        #expect(unreadable.location == "packet 2")
    }

    @Test func cutForgedAndMalformedInitialsNameNothingAndNeverTrap() throws {
        let destinationID: [UInt8] = [9, 9, 9, 9, 9, 9, 9, 9]
        let hello = QUICFixture.cryptoFrame(offset: 0, QUICFixture.clientHello(serverName: "never.example.com"))
        let sealed = try QUICFixture.initial(.v1, destinationID: destinationID, packetNumber: 0, frames: hello)
        var forged = sealed
        forged[600] ^= 0x01
        // CRYPTO data past 16 KiB: not kept.
        let far = try QUICFixture.initial(
            .v1, destinationID: destinationID, packetNumber: 0,
            frames: QUICFixture.cryptoFrame(offset: 20_000, Array(QUICFixture.clientHello(serverName: "far.example.com"))))
        // A ClientHello whose extensions run past the message: malformed.
        var badHello = QUICFixture.clientHello(serverName: "bad.example.com")
        // (the name's length, before the name and the last extension's 7 bytes)
        badHello[badHello.count - 7 - 15 - 2] = 0xFF
        let malformed = try QUICFixture.initial(
            .v1, destinationID: destinationID, packetNumber: 0, frames: QUICFixture.cryptoFrame(offset: 0, badHello))
        var generator = SplitMix64(seed: 2026)
        var datagrams: [[UInt8]] = [
            fromDevice(forged, port: 50001), fromDevice(far, port: 50002), fromDevice(malformed, port: 50003),
            // Headers that end early or claim too much.
            fromDevice([0xC3, 0, 0, 0, 1, 0xFF], port: 50004),
            fromDevice([0xC3, 0, 0, 0, 1, 8] + destinationID + [0, 0x44, 0xD0, 0, 0, 0, 0], port: 50005),
            fromDevice([0xC3, 0, 0, 0, 1, 8] + destinationID + [0, 0xC0] + [UInt8](repeating: 0xFF, count: 7), port: 50006),
            fromDevice([0x09, 1, 2, 3, 4, 5, 6, 7, 8, 0x51, 0x30, 0x34, 0x33, 1, 2], port: 50007),
        ]
        // Random bodies behind version 1, version 2 and Q046 long headers.
        for index in 0..<60 {
            let version: [UInt8] = [[0, 0, 0, 1], [0x6B, 0x33, 0x43, 0xCF], Array("Q046".utf8)][index % 3]
            let body = (0..<Int(generator.next() % 1300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            datagrams.append(fromDevice([0xC0 | UInt8(index % 4)] + version + body, port: UInt16(50100 + index)))
        }
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for (index, ip) in datagrams.enumerated() { writer.add(at: 1_700_000_000 + Double(index) * 0.02, Frame.ethernet(ip)) }
        // The sealed Initial, cut by the snapshot length.
        let cut = Frame.ethernet(fromDevice(sealed, port: 50000))
        writer.add(at: 1_700_000_010, cut, captured: 600)
        let input = try importCapture(writer.bytes)
        #expect(input.timeline.flows.count == datagrams.count + 1)
        #expect(input.timeline.flows.endpoint.allSatisfy { input.text($0) == server })
        let unreadable = try #require(input.diagnostic("unreadable-payload"))
        #expect(unreadable.count == 1)
        #expect(unreadable.location == "packet 3")
    }

    /// The QUIC captures of the shared corpus, checked against Wireshark 4's dissection:
    /// version 2 and version 1 Initials (through a Retry, after a version negotiation)
    /// decrypted, Google QUIC Q024, Q025, Q030 and Q046 read in the clear.
    @Test(arguments: [
        ("ndpi__quic-v2.pcapng", ["test"]),
        (
            "ndpi__quic.pcap",
            [
                "fonts.gstatic.com", "i.ytimg.com", "mail.google.com", "s.ytimg.com", "www.google.com", "www.youtube.com",
                "www.youtube.com", "yt3.ggpht.com",
            ]
        ),
        ("tcpdump__gquic.pcap", ["clientservices.googleapis.com"]),
        ("tcpdump__quic_handshake.pcap", ["localhost"]),
        ("tcpdump__quic_retry.pcap", ["localhost"]),
        // The client's version 1 Initial after version negotiation: Wireshark 4 does not open
        // it (it keeps the keys of the connection's first, greased-version, Initial), but its
        // AEAD tag checks with the keys of its own Destination Connection ID.
        ("tcpdump__quic_vn.pcap", ["localhost"]),
    ])
    func corpusQUICCapturesAreNamedByTheirClientHellos(file: String, names: [String]) throws {
        let path = Corpus.root.appendingPathComponent("pcap/\(file)").path
        let input = try CaptureImporter.read(path: path, inputIndex: 0)
        let flows = input.timeline.flows
        let named = flows.endpoint.indices.filter { flows.transport[$0] == 17 && !isAddress(input.text(flows.endpoint[$0])) }
        #expect(named.map { input.text(flows.endpoint[$0]) }.sorted() == names)
        #expect(named.allSatisfy { flows.flags[$0].contains(.quic) })
        #expect(input.diagnostic("unreadable-payload") == nil)
    }

    func isAddress(_ text: String) -> Bool {
        text.contains(":") || text.allSatisfy { $0.isNumber || $0 == "." }
    }
}
