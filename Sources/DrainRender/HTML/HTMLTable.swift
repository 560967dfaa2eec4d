/// A table of the HTML report, rendered with every cell escaped; sortable tables carry each
/// numeric cell's raw value in `data-value` for the page script.
public struct HTMLTable: Sendable {
    public struct Column: Sendable {
        public var title: String
        public var numeric: Bool

        public init(_ title: String, numeric: Bool = false) {
            self.title = title
            self.numeric = numeric
        }
    }

    public enum Cell: Sendable {
        /// Text from the report; escaped.
        case text(String)
        /// Text in a monospaced face (paths, hosts, ids); escaped, with the full text as a
        /// tooltip for when the column is narrow.
        case code(String)
        /// A formatted number and the value to sort by.
        case number(String, sortValue: Double)
        /// Markup the renderer built itself (badges, swatches) and the text to sort by.
        case markup(String, sortText: String)
    }

    public var columns: [Column]
    public var rows: [[Cell]] = []
    /// Whether the page script sorts it by a click on a column header.
    public var sortable = false
    public var cssClass = ""

    public init(columns: [Column], rows: [[Cell]] = [], sortable: Bool = false, cssClass: String = "") {
        self.columns = columns
        self.rows = rows
        self.sortable = sortable
        self.cssClass = cssClass
    }

    /// The table as HTML, every text cell escaped.
    public func render() -> String {
        var classes = cssClass
        if sortable { classes += classes.isEmpty ? "sortable" : " sortable" }
        var html = classes.isEmpty ? "<table>" : "<table class=\"\(classes)\">"
        html += "<thead><tr>"
        for column in columns {
            let attributes = column.numeric ? " class=\"num\" data-type=\"num\"" : ""
            html += "<th\(attributes) scope=\"col\">\(HTML.escape(column.title))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr>"
            for cell in row { html += Self.render(cell) }
            html += "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static func render(_ cell: Cell) -> String {
        switch cell {
        case .text(let text):
            return "<td>\(HTML.escape(text))</td>"
        case .code(let text):
            let escaped = HTML.escape(text)
            return "<td><code title=\"\(escaped)\">\(escaped)</code></td>"
        case .number(let text, let value):
            let sortValue = value.isFinite ? MachineNumber.compact(value) : "0"
            return "<td class=\"num\" data-value=\"\(sortValue)\">\(HTML.escape(text))</td>"
        case .markup(let markup, let sortText):
            return "<td data-value=\"\(HTML.escape(sortText))\">\(markup)</td>"
        }
    }
}
