#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTrace

/// Reading a large uncompressed Drain trace on two cores: the file is cut in two at the line
/// boundary nearest its middle, a second thread parses the later half into a timeline of its
/// own while this thread parses the header and the first half, and the later half's rows are
/// then appended with its strings re-interned. The result is the timeline, diagnostics and
/// line numbers a single pass gives (lines are numbered on in the second half).
///
/// A rejected line in either half falls back to reading the file again in one pass, which
/// reports the error exactly as it always does (the later half cannot know its first line's
/// number, nor whether the header was in the first half); rejected files are rare and cost 1.5
/// reads. A file that cannot be read, or shrinks while it is read, fails at once, as in one pass.
extension DrainTraceImporter {
    /// Files smaller than this are read in one pass: the second thread and the append would
    /// cost more than they save.
    static let halvesMinimumSize = 16 << 20

    /// Reads the file at `path`: in two halves when it is a plain regular file of at least
    /// `minimumSize` bytes, otherwise (gzip, a pipe, a small file) in one pass.
    static func readFile(
        path: String, compression: InputSource.Compression?, inputIndex: UInt16, chunkSize: Int = defaultChunkSize,
        minimumSize: Int = halvesMinimumSize, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        #if canImport(Glibc)
        if compression != .gzip,
            let input = try readInHalves(
                path: path, inputIndex: inputIndex, chunkSize: chunkSize, minimumSize: minimumSize, progress: progress)
        {
            return input
        }
        #endif
        return try read(path: path, compression: compression, inputIndex: inputIndex, chunkSize: chunkSize, progress: progress)
    }

    #if canImport(Glibc)
    /// The trace read in two halves, or nil when the file is not one to split or a line of
    /// either half was rejected (the caller then reads it in one pass). A file that cannot be
    /// read, or shrinks while it is read, fails here as it does in one pass.
    static func readInHalves(
        path: String, inputIndex: UInt16, chunkSize: Int, minimumSize: Int, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput? {
        let file = try FileByteSource(path: path)
        defer { file.close() }
        guard let size = file.size, size >= minimumSize, !InputBytes.startsWithGzipMagic(file.descriptor),
            let split = lineStart(after: size / 2, descriptor: file.descriptor, size: size)
        else { return nil }
        // Each half reads through a descriptor of its own, from its own offset.
        let laterFile = try FileByteSource(path: path)
        defer { laterFile.close() }

        let laterBytes = SharedByteCount()
        let later = LaterHalf()
        let laterDescriptor = laterFile.descriptor
        let thread = JoinableThread.start {
            later.outcome = Result { () throws(ImportError) -> ParsedPart in
                let source = try FileRangeByteSource(
                    path: path, descriptor: laterDescriptor, range: split..<size, estimateSize: size - split, fileSize: size,
                    report: { laterBytes.set($0) })
                var lines = LineReader(source: source, path: path, chunkSize: chunkSize)
                var parser = DrainTraceParser(path: path, inputIndex: inputIndex)
                let cutOff = try readEvents(from: &lines, into: &parser, path: path)
                return parser.laterPart(cutOff: cutOff)
            }
        }

        var parser = DrainTraceParser(path: path, inputIndex: inputIndex)
        var firstHalf: Result<(header: DrainTraceHeader, lines: Int)?, ImportError>
        do throws(ImportError) {
            // The first half reserves columns for the whole file, so the later half's rows
            // are appended without growing them.
            let source = try FileRangeByteSource(
                path: path, descriptor: file.descriptor, range: 0..<split, estimateSize: size, fileSize: size,
                report: { read in progress?(Int64(read + laterBytes.value)) })
            var lines = LineReader(source: source, path: path, chunkSize: chunkSize)
            let header = try readHeader(from: &lines, into: &parser, path: path)
            // The first half ends with a line break, so its last line is never cut off.
            let cutOff = try readEvents(from: &lines, into: &parser, path: path)
            firstHalf = .success(cutOff == nil ? (header, lines.linesRead) : nil)
        } catch {
            firstHalf = .failure(error)
        }
        thread?.join()
        switch (firstHalf, later.outcome) {
        case (.success(_?), .success?): break
        case (.failure(let error), _) where !error.isBadData, (.success, .failure(let error)?) where !error.isBadData:
            throw error
        default:
            return nil
        }
        guard case .success(let first?) = firstHalf, var part = later.takePart() else { return nil }
        progress?(Int64(size))
        parser.append(&part, lineOffset: first.lines)
        return parser.finish(header: first.header)
    }

    #endif

    /// The offset just past the first `\n` at or after `offset`, when that leaves bytes after
    /// it and lies within the longest line a reader accepts; nil otherwise.
    static func lineStart(after offset: Int, descriptor: Int32, size: Int) -> Int? {
        let window = 64 << 10
        var buffer = [UInt8](repeating: 0, count: window)
        var start = offset
        while start < size, start - offset <= LineReader<FileRangeByteSource>.maximumLineLength {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, min(window, size - start), off_t(start)) }
            guard count > 0 else { return nil }
            if let newline = buffer[0..<count].firstIndex(of: ASCII.newline) {
                let next = start + newline + 1
                return next < size ? next : nil
            }
            start += count
        }
        return nil
    }
}

/// A byte range of a file, read with `read(2)` through a descriptor that nothing else reads
/// from. `size` is what the capacity estimate is told, not the range's length.
struct FileRangeByteSource: ByteSource {
    let path: String
    let descriptor: Int32
    let range: Range<Int>
    let estimateSize: Int
    /// The file's size when it was opened, for the message when it shrank since.
    let fileSize: Int
    /// Told the bytes of the range read so far after each read.
    let report: (Int) -> Void
    private var offset: Int

    /// Moves the descriptor's offset to the start of `range`.
    init(
        path: String, descriptor: Int32, range: Range<Int>, estimateSize: Int, fileSize: Int,
        report: @escaping (Int) -> Void
    ) throws(ImportError) {
        guard lseek(descriptor, off_t(range.lowerBound), SEEK_SET) == off_t(range.lowerBound) else {
            throw .unreadable(path: path, reason: FileByteSource.systemMessage(errno))
        }
        self.path = path
        self.descriptor = descriptor
        self.range = range
        self.estimateSize = estimateSize
        self.fileSize = fileSize
        self.report = report
        offset = range.lowerBound
    }

    var size: Int? { estimateSize }

    /// - Throws: `ImportError.unreadable` when `read(2)` fails or the file ends before the
    ///   range does (it shrank while it was read).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let wanted = min(buffer.count, range.upperBound - offset)
        guard let base = buffer.baseAddress, wanted > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, wanted)
            if count > 0 {
                offset += count
                report(offset - range.lowerBound)
                return count
            }
            if count == 0 {
                throw .unreadable(path: path, reason: FileByteSource.shrankMessage(from: fileSize, at: offset))
            }
            if errno == EINTR { continue }
            throw .unreadable(path: path, reason: FileByteSource.systemMessage(errno))
        }
    }
}

#if canImport(Glibc)
extension ImportError {
    /// Whether this is a rejected line or header (`badData`), which a later half of a file
    /// cannot report with the right line number.
    var isBadData: Bool {
        if case .badData = self { return true }
        return false
    }
}

/// What the second thread hands back: written by it before it ends, read after `join`.
private final class LaterHalf: @unchecked Sendable {
    var outcome: Result<ParsedPart, ImportError>?

    /// The part read, taken out of the outcome, so that the caller holds its columns alone and
    /// appending releases them one by one.
    func takePart() -> ParsedPart? {
        guard case .success(let part)? = outcome else { return nil }
        outcome = nil
        return part
    }
}

/// A byte count that one thread sets and another reads (for progress), under a lock.
final class SharedByteCount: @unchecked Sendable {
    private let lock = ThreadLock()
    private var total = 0

    /// Sets the count to `value` (the reader's running total).
    func set(_ value: Int) {
        lock.withLock { total = value }
    }

    var value: Int {
        lock.withLock { total }
    }
}

#endif
