import DrainReport
/// Renders a report as the public JSON document described in `docs/reports.md`.
public struct JSONReportRenderer: Sendable {
    public init() {}

    /// The report as pretty-printed JSON with sorted keys and a final newline: the same
    /// report always gives byte-identical text. O(size of the report).
    ///
    /// - Throws: `ReportRenderError.nonFiniteNumber` when a number is NaN or infinite.
    public static func render(_ report: Report) throws(ReportRenderError) -> String {
        try ReportJSON.document(report)
    }
}
