#if canImport(Glibc)
import Glibc
#endif
import DrainTraceWriter
import Testing

@Suite struct FileWritingTests {
    /// A fresh directory under /tmp, and its entries.
    struct Directory {
        let path: String

        init() {
            var template = Array("/tmp/drain-writer-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }

        var entries: [String] {
            guard let directory = opendir(path) else { return [] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            return names.sorted()
        }

        func read(_ name: String) -> String? {
            guard let file = fopen(path + "/" + name, "r") else { return nil }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
            return String(decoding: bytes, as: UTF8.self)
        }

        func remove() {
            // A test may leave a directory in the way of a rename: unlink refuses it, rmdir not.
            for name in entries where unlink(path + "/" + name) != 0 { rmdir(path + "/" + name) }
            rmdir(path)
        }
    }

    @Test func theAtomicWriterReplacesTheFileWhole() throws {
        let directory = Directory()
        defer { directory.remove() }
        let path = directory.path + "/trace.jsonl"
        try Array("old\n".utf8).withUnsafeBytes { try AtomicFile.write($0, to: path) }
        try Array("new contents\n".utf8).withUnsafeBytes { try AtomicFile.write($0, to: path) }
        #expect(directory.entries == ["trace.jsonl"])
        #expect(directory.read("trace.jsonl") == "new contents\n")
    }

    @Test func aFailedRenameLeavesNoFileAndNamesPathAndErrno() throws {
        let directory = Directory()
        defer { directory.remove() }
        // A directory in the way: the rename fails.
        let path = directory.path + "/taken"
        mkdir(path, 0o700)
        let file = try AtomicFile(path: path)
        try Array("data".utf8).withUnsafeBytes { try file.write($0) }
        #expect(directory.entries.count == 2)
        #expect(throws: FileWriteError(path: path, operation: .rename, code: EISDIR)) { try file.commit(synchronizing: true) }
        #expect(directory.entries == ["taken"])
    }

    @Test func aDiscardedFileLeavesNothing() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = try AtomicFile(path: directory.path + "/out.pcap")
        #expect(file.temporaryPath.hasPrefix(directory.path + "/.out.pcap."))
        file.discard()
        #expect(directory.entries.isEmpty)
    }

    @Test func unwritablePlacesFailAtCreationWithTheirErrno() {
        #expect(throws: FileWriteError(path: "/nonexistent-drain/x.json", operation: .createFile, code: ENOENT)) {
            try AtomicFile(path: "/nonexistent-drain/x.json")
        }
        #expect(throws: FileWriteError(path: "a\0b", operation: .createFile, code: EINVAL)) { try AtomicFile(path: "a\0b") }
        let error = FileWriteError(path: "/x", operation: .write, code: ENOSPC)
        #expect(error.description == "cannot write /x: No space left on device")
    }

    @Test func writeAllWritesEveryByteThroughAPipeAndReportsErrno() {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let bytes = [UInt8](repeating: 0x61, count: 40_000)
        let result = bytes.withUnsafeBytes { FileIO.writeAll($0, to: descriptors[1]) }
        close(descriptors[1])
        #expect(result.written == 40_000 && result.code == 0)
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 8192)
        while case let count = read(descriptors[0], &buffer, buffer.count), count > 0 { total += count }
        close(descriptors[0])
        #expect(total == 40_000)
        let failed = bytes.withUnsafeBytes { FileIO.writeAll($0, to: -1) }
        #expect(failed.written == 0 && failed.code == EBADF)
    }
}
