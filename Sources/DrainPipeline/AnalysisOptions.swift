import DrainImport
import DrainTrace

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
    /// `BinGrid.maximumBins` bins.
    public var binSeconds: Double?
    /// A stretch without events longer than this (seconds) is a time gap (`--gap-threshold`):
    /// it splits the run into segments and is left out of the active duration. `nil` uses
    /// `TimeGaps.defaultThreshold` (1 h).
    public var gapThresholdS: Double?

    /// How packet captures are read: `--device-ip`, `--link`.
    public var capture: CaptureOptions

    /// Called before each input is read with its path; returns where to report the bytes
    /// read, or `nil` for no progress on that input.
    public var progress: ((_ path: String) -> InputProgress?)?

    public init(
        inputs: [String], model: String? = nil, configuration: String? = nil, binSeconds: Double? = nil,
        gapThresholdS: Double? = nil, capture: CaptureOptions = CaptureOptions(), progress: ((_ path: String) -> InputProgress?)? = nil
    ) {
        self.capture = capture
        self.inputs = inputs
        self.model = model
        self.configuration = configuration
        self.binSeconds = binSeconds
        self.gapThresholdS = gapThresholdS
        self.progress = progress
    }

    /// The shortest gap threshold: a minute, longer than the radio tail of every built-in
    /// model, so that a tail never runs on into a gap.
    public static let minimumGapThresholdS = 60.0

    /// Seconds from a duration argument: a number with an optional unit, `s`, `m`, `h` or `d`
    /// (`90`, `90s`, `30m`, `1h`, `1.5d`); `nil` for anything else.
    public static func seconds(fromDuration text: String) -> Double? {
        let units: [(suffix: String, scale: Double)] = [("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400)]
        let unit = units.first { text.hasSuffix($0.suffix) }
        let number = unit.map { String(text.dropLast($0.suffix.count)) } ?? text
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number) else {
            return nil
        }
        return value * (unit?.scale ?? 1)
    }
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
