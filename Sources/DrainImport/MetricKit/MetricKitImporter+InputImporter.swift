extension MetricKitImporter: InputImporter {
    public var format: InputFormat { .metrickit }
    public var displayName: String { "MetricKit JSON" }
    public var summary: String { "MetricKit payloads (MXMetricPayload, MXDiagnosticPayload) as JSON: daily aggregates" }

    /// Keys that only MetricKit payloads (MXMetricPayload, MXDiagnosticPayload and their
    /// call-stack trees) use at their top levels.
    static let keys = [
        "timeStampBegin", "timeStampEnd", "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics",
        "diskWriteExceptionDiagnostics", "appLaunchDiagnostics", "cpuMetrics", "gpuMetrics", "memoryMetrics",
        "diskIOMetrics", "networkTransferMetrics", "cellularConditionMetrics", "applicationTimeMetrics",
        "locationActivityMetrics", "displayMetrics", "applicationLaunchMetrics", "applicationResponsivenessMetrics",
        "callStackTree", "callStacks", "callStackRootFrames",
    ]

    /// A JSON object or array with one of MetricKit's keys.
    public func recognizes(head: [UInt8]) -> Bool {
        let sniffer = FormatSniffer(head)
        guard sniffer.firstTextByte == ASCII.openBrace || sniffer.firstTextByte == ASCII.openBracket else { return false }
        return Self.keys.contains(where: sniffer.containsKey)
    }

    public func read(
        source: InputSource, inputIndex: UInt16, capture: CaptureOptions, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        try Self.read(path: source.path, compression: source.compression, inputIndex: inputIndex, progress: progress)
    }
}
