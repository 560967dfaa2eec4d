import DrainReport

/// Which formats to write, where. `-` as a document's path means standard output.
public struct ReportOutputs: Sendable {
    /// One requested output: a renderer and its file or directory.
    public struct Request: Sendable {
        public var renderer: any ReportRenderer.Type
        public var path: String

        public init(renderer: any ReportRenderer.Type, path: String) {
            self.renderer = renderer
            self.path = path
        }
    }

    public var requests: [Request]

    public init(_ requests: [Request] = []) {
        self.requests = requests
    }

    /// Outputs from `identifier → path` pairs (nil paths are skipped), in `ReportRenderers.all` order.
    public init(paths: [String: String?]) {
        requests = ReportRenderers.fileRenderers.compactMap { renderer in
            guard let path = paths[renderer.identifier] ?? nil else { return nil }
            return Request(renderer: renderer, path: path)
        }
    }

    public var isEmpty: Bool { requests.isEmpty }

    /// Whether a document goes to standard output (so nothing else may).
    public var writesStandardOutput: Bool {
        requests.contains { $0.path == "-" && $0.renderer.destination == .file }
    }

    /// Renders every requested format first, then writes each file atomically, so a
    /// rendering failure leaves no file behind. Returns the text meant for standard output.
    public func write(_ report: Report) throws(OutputError) -> String? {
        var rendered: [(request: Request, output: RenderedReport)] = []
        var standardOutput: String?
        do throws(ReportRenderError) {
            for request in requests {
                let output = try request.renderer.init().render(report)
                if request.path == "-", case let .document(text) = output {
                    standardOutput = text
                } else {
                    rendered.append((request, output))
                }
            }
        } catch {
            throw .render(error.description)
        }
        do {
            for (request, output) in rendered {
                switch output {
                case let .document(text): try ReportWriter.write(text, to: request.path)
                case let .tables(tables): try ReportWriter.writeTables(tables, directory: request.path)
                }
            }
        } catch {
            throw .write(error)
        }
        return standardOutput
    }
}

/// A report could not be rendered or written.
public enum OutputError: Error, Sendable, CustomStringConvertible {
    case render(String)
    case write(ReportWriteError)

    public var description: String {
        switch self {
        case let .render(reason): "cannot render the report: \(reason)"
        case let .write(error): String(describing: error)
        }
    }

    /// Output files that cannot be created are reported like unwritable files: 73
    /// (EX_CANTCREAT).
    public var exitCode: Int32 { 73 }
}
