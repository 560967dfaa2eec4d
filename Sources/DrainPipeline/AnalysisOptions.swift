/// What to analyse and how.
public struct AnalysisOptions: Sendable {
    /// Input files; several inputs of one run share one timeline, lined up by wall clock.
    public var inputs: [String]
    /// A built-in model name or a model file path; `nil` uses the inputs' device hint when
    /// it names a built-in model, else the default model.
    public var model: String?
    /// A rule configuration YAML (`--config`).
    public var configuration: String?
    /// Width of the report's timeline bins in seconds; `nil` picks one that gives at most
    /// `maximumBins` bins.
    public var binSeconds: Double?

    public init(inputs: [String], model: String? = nil, configuration: String? = nil, binSeconds: Double? = nil) {
        self.inputs = inputs
        self.model = model
        self.configuration = configuration
        self.binSeconds = binSeconds
    }

    /// The most bins an automatically chosen width gives.
    public static let maximumBins = 600
}
