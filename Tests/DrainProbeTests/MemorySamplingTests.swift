import DrainImport
import DrainProbe
import DrainTrace
import Foundation
import Testing

/// The background thread records the process's footprint at the interval asked for, and
/// stops when told.
@Suite("DrainProbe memory sampling")
struct MemorySamplingTests {
    @Test("samples arrive in the file while the probe runs, with a footprint above zero, and stop when told")
    func samplesAndStops() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe(memorySamplingInterval: .milliseconds(10))

        // Each sample also writes what is older than one interval, so the file shows them
        // without `flush()`.
        var samples: [Event] = []
        let deadline = Date().addingTimeInterval(10)
        while samples.count < 3 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            samples = try fixture.read().events(.memory)
        }
        #expect(samples.count >= 3)
        for sample in samples {
            #expect(sample.amount > 0)
            #expect(sample.thread == 0, "a footprint belongs to the process, not a thread")
        }
        for index in samples.indices.dropFirst() { #expect(samples[index].time > samples[index - 1].time) }

        probe.stopMemorySampling()
        probe.flush()
        let stopped = try fixture.read().events(.memory).count
        Thread.sleep(forTimeInterval: 0.1)
        probe.close()
        #expect(try fixture.read().events(.memory).count == stopped)
    }

    @Test("sampleMemory records the footprint it returns")
    func onDemand() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        let footprint = try #require(probe.sampleMemory())
        probe.close()
        #expect(footprint > 0)
        #expect(try fixture.read().events(.memory).map(\.amount) == [Int64(footprint)])
    }

    @Test("a footprint grows by what the process touches")
    func growth() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        defer { probe.close() }
        // The footprint is the whole process's, and the tests running alongside allocate and
        // free too (under AddressSanitizer, tens of MiB at a time), so one measurement can
        // show less than was touched, even a drop. An attempt they disturb is made again, up
        // to five times: touching 64 MiB must show at least 48 MiB of growth in one of them.
        let size = 64 << 20
        var growths: [Int] = []
        for _ in 0..<5 {
            let before = try #require(probe.sampleMemory())
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
            defer { block.deallocate() }
            // Touch every page so that it becomes resident.
            for page in stride(from: 0, to: size, by: 4096) { block.storeBytes(of: 1, toByteOffset: page, as: UInt8.self) }
            let after = try #require(probe.sampleMemory())
            growths.append(after - before)
            if after - before >= 48 << 20 { break }
        }
        #expect(growths.contains { $0 >= 48 << 20 }, "growth of each attempt: \(growths)")
    }
}
