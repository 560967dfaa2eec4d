import DrainImport
import DrainProbe
import DrainTrace
import Testing

/// Slices (`cpu`, `gpu`, `mark` with a duration) are written when they end but carry the
/// time they began; the probe puts them back in time order among the buffered lines.
@Suite("DrainProbe event order")
struct OrderingTests {
    @Test("a slice goes in before the events that happened during it")
    func slicesInOrder() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        let outer = probe.now()
        probe.net(.tx, bytes: 1)
        probe.measure("inner") { probe.mark("inside") }
        probe.net(.rx, bytes: 2)
        probe.cpu("outer", since: outer)
        probe.close()

        // The file itself is in time order: the outer slice first, the inner before its mark.
        let types = try fixture.lines().dropFirst().map { line in
            line.split(separator: ",").first { $0.hasPrefix(#""type""#) }.map(String.init) ?? ""
        }
        #expect(types == [#""type":"cpu""#, #""type":"net""#, #""type":"cpu""#, #""type":"mark""#, #""type":"net""#])
        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty, "no out-of-order warning")
        #expect(input.events(.cpu).map { input.text($0.label) } == ["outer", "inner"])
    }

    @Test("a slice stays in order while its start is within the newer half of a buffer that filled")
    func acrossBufferWrites() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe(bufferCapacity: 4096)
        // About 60 bytes a line: 300 events fill the 4 KiB buffer several times.
        for index in 0..<300 { probe.net(.tx, bytes: index) }
        let start = probe.now()
        for index in 0..<10 { probe.net(.rx, bytes: index) }
        probe.cpu("recent", since: start)
        probe.close()

        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty)
        #expect(input.timeline.count == 311)
    }

    @Test("a slice that began before lines already written to the file is out of order, and the reader says so")
    func beforeTheLastWrite() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        let start = probe.now()
        probe.net(.tx, bytes: 1)
        probe.flush()
        probe.cpu("long", since: start)
        probe.close()

        let input = try fixture.read()
        let warning = try #require(input.info.diagnostics.entries.first { $0.code == "out-of-order" })
        #expect(warning.count == 1)
        // The reader sorted it back into place.
        #expect(Array(input.timeline.kind) == [.cpu, .net])
    }
}
