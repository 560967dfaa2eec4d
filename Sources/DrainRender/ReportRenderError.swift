/// Why a report, a gate verdict or a comparison could not be rendered.
public enum ReportRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A number in the report is NaN or infinite, which JSON cannot carry. `path` locates it
    /// in the JSON form, e.g. `timeline.energy_j[3][1]`.
    case nonFiniteNumber(path: String)
    /// The encoder failed for another reason.
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .nonFiniteNumber(let path): "a number to write is not finite (NaN or infinite) at \(path)"
        case .encodingFailed(let reason): "the report could not be encoded as JSON: \(reason)"
        }
    }
}
