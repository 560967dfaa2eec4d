import DrainTestSupport
import Foundation
import Testing

@testable import DrainImport

/// A capture read in place is mapped (`MappedCapture`): a file that shrinks while mapped must
/// not kill the process, and the pages read must leave the process as the reader moves on.
@Suite struct MappedCaptureTests {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Bytes whose value says where they are, so that a misplaced or zeroed page shows.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 / 7 + 1) | 1 }
    }

    static func map(_ path: String) throws -> (MappedCapture, FileHandle) {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        let size = Int(try handle.seekToEnd())
        return (try #require(MappedCapture(descriptor: handle.fileDescriptor, size: size)), handle)
    }

    @Test func aMappedFileReadsAsItsBytes() throws {
        let bytes = Self.pattern(3 * Self.pageSize + 123)
        try withTemporaryFile(bytes, name: "mapped.pcap") { path in
            let (mapping, handle) = try Self.map(path)
            defer { try? handle.close() }
            #expect(Array(mapping.bytes) == bytes)
            #expect(!mapping.shrank)
        }
    }

    /// Truncated while mapped: the bytes before the cut are the file's, those past it read as
    /// zeros instead of raising SIGBUS, and only that mapping says it shrank.
    @Test func aFileThatShrinksWhileMappedReadsAsZerosPastItsEnd() throws {
        let bytes = Self.pattern(8 * Self.pageSize)
        let cut = 3 * Self.pageSize + 10
        try withTemporaryFile(bytes, name: "other.pcap") { otherPath in
            let (other, otherHandle) = try Self.map(otherPath)
            defer { try? otherHandle.close() }
            try withTemporaryFile(bytes, name: "shrinking.pcap") { path in
                let (mapping, handle) = try Self.map(path)
                defer { try? handle.close() }
                let writer = try #require(FileHandle(forWritingAtPath: path))
                try writer.truncate(atOffset: UInt64(cut))
                try writer.close()
                let read = Array(mapping.bytes)
                #expect(Array(read[..<cut]) == Array(bytes[..<cut]))
                // The page holding the new end reads as the file (its tail as zeros, the kernel's).
                #expect(read[cut...].allSatisfy { $0 == 0 })
                #expect(mapping.shrank)
                #expect(!other.shrank)
                #expect(Array(other.bytes) == bytes)
            }
        }
    }

    /// Dropping the pages behind a window leaves only the pages from the one holding its end
    /// resident in the process.
    @Test func droppedPagesLeaveTheProcess() throws {
        let pages = 64
        try withTemporaryFile(Self.pattern(pages * Self.pageSize), name: "dropped.pcap") { path in
            let (mapping, handle) = try Self.map(path)
            defer { try? handle.close() }
            var sum = 0
            for page in 0..<pages { sum &+= Int(mapping.bytes[page * Self.pageSize]) }
            #expect(sum > 0)
            let start = try #require(mapping.bytes.baseAddress)
            #expect(try Self.residentKiB(of: start) == pages * Self.pageSize / 1024)
            let window = UnsafeRawBufferPointer(rebasing: mapping.bytes[(10 * Self.pageSize)..<(48 * Self.pageSize + 100)])
            mapping.dropPages(through: window)
            #expect(try Self.residentKiB(of: start) == (pages - 48) * Self.pageSize / 1024)
            // Dropped pages read again as the file.
            #expect(Array(mapping.bytes[0..<Self.pageSize]) == Array(Self.pattern(Self.pageSize)))
        }
    }

    /// The `Rss` of the mapping starting at `start`.
    static func residentKiB(of start: UnsafeRawPointer) throws -> Int {
        let address = String(UInt(bitPattern: start), radix: 16)
        return try #require(DrainTestSupport.residentKiB { $0.hasPrefix("\(address)-") })
    }
}
