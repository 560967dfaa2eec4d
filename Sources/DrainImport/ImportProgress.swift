/// Told how many bytes of an input an importer has read so far, once per chunk it reads (at
/// most a few hundred times a second), so a caller can show progress on long imports.
public typealias ImportProgress = (_ bytesRead: Int64) -> Void

/// A byte source that reports the running total of bytes read after every read (when it has
/// a `progress` to tell).
struct ProgressByteSource<Base: ByteSource>: ByteSource {
    var base: Base
    let progress: ImportProgress?
    private var total: Int64 = 0

    init(_ base: Base, progress: ImportProgress?) {
        self.base = base
        self.progress = progress
    }

    var size: Int? { base.size }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let count = try base.read(into: buffer)
        total += Int64(count)
        progress?(total)
        return count
    }
}
