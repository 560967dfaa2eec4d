import DrainTrace

/// Why an input could not be read. Each case names the file; bad data also names where.
public enum ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read (missing, a directory, no permission). Exit 66.
    case unreadable(path: String, reason: String)
    /// The file was read but its content is not valid for its format. Exit 65.
    /// `location` is `line L, column C` or `byte B`.
    case badData(path: String, location: String?, reason: String)
    /// The file's format could not be recognised. Exit 65.
    case unknownFormat(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "\(path): cannot read: \(reason)"
        case let .badData(path, location, reason):
            "\(path):\(location.map { " \($0):" } ?? "") \(reason)"
        case let .unknownFormat(path, reason):
            "\(path): unknown input format: \(reason)"
        }
    }

    /// The file the error is about.
    public var path: String {
        switch self {
        case let .unreadable(path, _), let .badData(path, _, _), let .unknownFormat(path, _): path
        }
    }
}

/// One input read into a timeline of its own, before merging.
public struct ImportedInput: Sendable {
    public var timeline: Timeline
    public var info: InputInfo

    public init(timeline: Timeline, info: InputInfo) {
        self.timeline = timeline
        self.info = info
    }
}
