import DrainReport

/// Where to write a report, in which formats. `-` as the JSON path means standard output.
public struct ReportOutputs: Sendable {
    public var json: String?
    public var csvDirectory: String?
    public var html: String?
    public var markdown: String?

    public init(json: String? = nil, csvDirectory: String? = nil, html: String? = nil, markdown: String? = nil) {
        self.json = json
        self.csvDirectory = csvDirectory
        self.html = html
        self.markdown = markdown
    }

    /// Whether the JSON report goes to standard output (so nothing else may).
    public var jsonToStandardOutput: Bool { json == "-" }

    /// Renders every requested format first, then writes each file atomically, so a
    /// rendering failure leaves no file behind. Returns the JSON text when it is meant for
    /// standard output.
    public func write(_ report: Report) throws(OutputError) -> String? {
        var files: [(path: String, text: String)] = []
        var standardOutput: String?
        do {
            if let json {
                let text = try JSONReportRenderer.render(report)
                if json == "-" { standardOutput = text } else { files.append((json, text)) }
            }
            if let html { files.append((html, try HTMLReportRenderer.render(report))) }
        } catch {
            throw .render(String(describing: error))
        }
        if let markdown { files.append((markdown, MarkdownReportRenderer.render(report))) }
        do {
            for file in files { try ReportWriter.write(file.text, to: file.path) }
            if let csvDirectory { try ReportWriter.writeCSVTables(CSVReportRenderer.tables(report), directory: csvDirectory) }
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
