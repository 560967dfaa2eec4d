import DrainRender

/// Renders a verdict as the JSON document `--json` writes (`docs/gate.md#json`).
public struct GateJSONRenderer: Sendable {
    public init() {}

    /// The verdict as pretty-printed JSON with sorted keys, `/` unescaped and a final newline:
    /// the same verdict always gives the same bytes, and decoding them gives it back. O(size of
    /// the verdict).
    ///
    /// - Throws: `ReportRenderError.nonFiniteNumber` naming the value's path (say
    ///   `checks[2].energy_impact_j`) when a number is NaN or infinite. JSON cannot carry such
    ///   a number, and writing it as absent would make a verdict that no longer decodes (most
    ///   of its numbers are required), so the verdict is refused instead.
    public func render(_ verdict: GateVerdict) throws(ReportRenderError) -> String {
        try ReportJSON.document(verdict)
    }
}
