import DrainReport

/// Where a renderer's output goes, which decides the command-line value it takes.
public enum RenderDestination: Sendable, Equatable {
    /// One file (`FILE`); `-` names standard output where the caller allows it.
    case file
    /// A directory that receives one file per table (`DIR`).
    case directory
    /// Standard output only: the terminal summary, which has no option of its own.
    case terminal
}

/// What a renderer made of a report.
public enum RenderedReport: Sendable {
    /// One document (UTF-8 text).
    case document(String)
    /// Named tables, each written to `<directory>/<name>.csv`, in this order.
    case tables([RenderedTable])
}

/// One table of a `RenderedReport.tables` output.
public struct RenderedTable: Sendable, Equatable {
    /// A plain file name without extension (`summary`, `findings`, …).
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// A report format. Modelled on SwiftLint's `Reporter`: a renderer declares its identifier
/// (the command-line option that asks for it), a description (its help text), where its
/// output goes, and renders a `Report`. Renderers are listed in `ReportRenderers.all`; the
/// command line's output options and help are built from that list.
public protocol ReportRenderer: Sendable {
    /// The format's name, also its option: `json` → `--json FILE`.
    static var identifier: String { get }
    /// One sentence for `--help`.
    static var description: String { get }
    static var destination: RenderDestination { get }

    /// The renderer with its default settings.
    init()

    /// Renders `report`. Deterministic: equal reports give identical output.
    ///
    /// - Throws: `ReportRenderError` when the report cannot be encoded (a non-finite number).
    func render(_ report: Report) throws(ReportRenderError) -> RenderedReport
}

/// Every report format Drain writes.
public enum ReportRenderers {
    /// In the order the help lists them. Adding a format is its renderer plus one entry here.
    public static let all: [any ReportRenderer.Type] = [
        JSONReportRenderer.self, CSVReportRenderer.self, HTMLReportRenderer.self, MarkdownReportRenderer.self,
        TerminalReportRenderer.self,
    ]

    /// The renderers that write a file or a directory: one output option each.
    public static var fileRenderers: [any ReportRenderer.Type] {
        all.filter { $0.destination != .terminal }
    }

    /// The renderer whose identifier is `identifier`, if any.
    public static func renderer(_ identifier: String) -> (any ReportRenderer.Type)? {
        all.first { $0.identifier == identifier }
    }

    /// The help text of an output option: the renderer's description and, for a file, how
    /// standard output is named.
    public static func optionHelp(_ renderer: any ReportRenderer.Type) -> String {
        switch renderer.destination {
        case .file where renderer.identifier == JSONReportRenderer.identifier:
            "\(renderer.description) ('-' for standard output)."
        case .file, .directory, .terminal:
            "\(renderer.description)."
        }
    }

    /// `FILE` or `DIR`, for help texts.
    public static func valueName(_ renderer: any ReportRenderer.Type) -> String {
        renderer.destination == .directory ? "DIR" : "FILE"
    }
}

extension JSONReportRenderer: ReportRenderer {
    public static let identifier = "json"
    public static let description = "Write the JSON report to FILE"
    public static let destination = RenderDestination.file

    public func render(_ report: Report) throws(ReportRenderError) -> RenderedReport {
        .document(try Self.render(report))
    }
}

extension CSVReportRenderer: ReportRenderer {
    public static let identifier = "csv"
    public static let description = "Write CSV tables (summary, findings, timeline, metrics, …) into DIR"
    public static let destination = RenderDestination.directory

    public func render(_ report: Report) -> RenderedReport {
        .tables(Self.tables(report).map { RenderedTable(name: $0.name, text: $0.csv) })
    }
}

extension HTMLReportRenderer: ReportRenderer {
    public static let identifier = "html"
    public static let description = "Write the self-contained interactive HTML report to FILE"
    public static let destination = RenderDestination.file

    public func render(_ report: Report) throws(ReportRenderError) -> RenderedReport {
        .document(try Self.render(report))
    }
}

extension MarkdownReportRenderer: ReportRenderer {
    public static let identifier = "markdown"
    public static let description = "Write a Markdown report to FILE (for CI summaries and pull requests)"
    public static let destination = RenderDestination.file

    public func render(_ report: Report) -> RenderedReport {
        .document(Self.render(report))
    }
}

extension TerminalReportRenderer: ReportRenderer {
    public static let identifier = "terminal"
    public static let description = "Print the summary to the terminal (the default without an output option)"
    public static let destination = RenderDestination.terminal

    public func render(_ report: Report) -> RenderedReport {
        .document(Self.render(report, color: color, width: width))
    }
}
