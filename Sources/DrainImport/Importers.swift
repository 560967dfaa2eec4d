/// Reads any supported input: detects its format and hands it to that format's importer.
public enum Importers {
    /// Detects the format of the file at `path` (see `InputFormat.detect(path:)`) and reads it.
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be read; `.unknownFormat` if its
    ///   format is not recognised;
    ///   otherwise whatever the format's importer throws.
    /// - Parameters:
    ///   - capture: how to read packet captures (device address, link override).
    ///   - progress: told the bytes read so far as the import goes on.
    public static func read(
        path: String, inputIndex: UInt16, capture: CaptureOptions = CaptureOptions(), progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        let format = try InputFormat.detect(path: path)
        switch format {
        case .drainTrace:
            return try DrainTraceImporter.read(path: path, inputIndex: inputIndex, progress: progress)
        case .pcap, .pcapng:
            var options = capture
            options.progress = progress ?? capture.progress
            return try CaptureImporter.read(path: path, inputIndex: inputIndex, options: options)
        case .strace:
            return try StraceImporter.read(path: path, inputIndex: inputIndex, progress: progress)
        case .chromeTrace:
            return try ChromeTraceImporter.read(path: path, inputIndex: inputIndex, progress: progress)
        case .metrickit:
            return try MetricKitImporter.read(path: path, inputIndex: inputIndex, progress: progress)
        }
    }
}
