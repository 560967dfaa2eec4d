import DrainImport

/// What to analyse and how.
public struct AnalysisOptions {
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

    /// How packet captures are read: `--device-ip`, `--link`.
    public var capture: CaptureOptions

    /// Called before each input is read with its path; returns where to report the bytes
    /// read, or `nil` for no progress on that input.
    public var progress: ((_ path: String) -> InputProgress?)?

    public init(
        inputs: [String], model: String? = nil, configuration: String? = nil, binSeconds: Double? = nil,
        capture: CaptureOptions = CaptureOptions(), progress: ((_ path: String) -> InputProgress?)? = nil
    ) {
        self.capture = capture
        self.inputs = inputs
        self.model = model
        self.configuration = configuration
        self.binSeconds = binSeconds
        self.progress = progress
    }

    /// The most bins an automatically chosen width gives.
    public static let maximumBins = 600
}

/// Where one input's import reports its progress.
public struct InputProgress {
    /// Told the bytes read so far.
    public var update: ImportProgress
    /// Called once the input is read (or failed).
    public var finish: () -> Void

    public init(update: @escaping ImportProgress, finish: @escaping () -> Void) {
        self.update = update
        self.finish = finish
    }
}
