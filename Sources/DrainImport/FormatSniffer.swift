/// Looks at the first bytes of a file for the importers' `recognizes(head:)` (see
/// `InputFormat.detect`), and says what a file that no importer recognises starts with.
struct FormatSniffer {
    let head: [UInt8]

    init(_ head: [UInt8]) {
        self.head = head
    }

    /// The first byte of text: after a UTF-8 byte order mark and whitespace; `nil` if none.
    var firstTextByte: UInt8? {
        let start = textStart
        return start < head.count ? head[start] : nil
    }

    /// Where text starts: after a UTF-8 byte order mark and whitespace.
    private var textStart: Int {
        var index = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < head.count, ASCII.isBlank(head[index]) { index += 1 }
        return index
    }

    /// Whether `"key"` followed by optional whitespace and `:` occurs in the first line of text.
    func firstLineHasKey(_ key: String) -> Bool {
        let start = textStart
        let end = head[start...].firstIndex(of: ASCII.newline) ?? head.count
        return hasKey(key, in: start..<end)
    }

    /// Whether `"key"` followed by optional whitespace and `:` occurs anywhere in the head.
    func containsKey(_ key: String) -> Bool {
        hasKey(key, in: 0..<head.count)
    }

    private func hasKey(_ key: String, in range: Range<Int>) -> Bool {
        let quoted = Array("\"\(key)\"".utf8)
        var index = range.lowerBound
        while index + quoted.count <= range.upperBound {
            if head[index] == ASCII.quote, head[index..<index + quoted.count].elementsEqual(quoted) {
                var after = index + quoted.count
                while after < range.upperBound, ASCII.isBlank(head[after]) { after += 1 }
                if after < range.upperBound, head[after] == ASCII.colon { return true }
            }
            index += 1
        }
        return false
    }

    /// strace output: each line is `[pid N] ` or `N ` (with -f), an optional timestamp
    /// (`1795311592.347824`, `01:39:57.746505`, or relative seconds), then `name(`, or one
    /// of strace's own lines (`+++ exited…`, `--- SIGCHLD…`, `<... read resumed>`). The
    /// summary of `strace -c` starts with its table header `% time`. Only the first line of
    /// text is looked at.
    var looksLikeStrace: Bool {
        let start = textStart
        let end = head[start...].firstIndex(of: ASCII.newline) ?? head.count
        let line = Array(head[start..<end])
        if line.starts(with: Array("% time".utf8)) { return true }
        var index = 0
        func skipSpaces() { while index < line.count, line[index] == ASCII.space { index += 1 } }
        func digits() -> Int {
            let from = index
            while index < line.count, ASCII.isDigit(line[index]) { index += 1 }
            return index - from
        }
        if line.starts(with: Array("[pid".utf8)) {
            index = 4
            skipSpaces()
            guard digits() > 0, index < line.count, line[index] == ASCII.closeBracket else { return false }
            index += 1
            skipSpaces()
        }
        // Up to two numeric fields (pid, timestamp) before the call.
        for _ in 0..<2 {
            let mark = index
            guard digits() > 0 else { break }
            while index < line.count, line[index] == ASCII.dot || line[index] == ASCII.colon || ASCII.isDigit(line[index]) {
                index += 1
            }
            guard index < line.count, line[index] == ASCII.space else {
                index = mark
                break
            }
            skipSpaces()
        }
        let rest = line[index...]
        for marker in ["+++ ", "--- ", "<... "] where rest.starts(with: Array(marker.utf8)) { return true }
        var nameEnd = index
        while nameEnd < line.count, line[nameEnd] == UInt8(ascii: "_") || ASCII.isDigit(line[nameEnd])
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(line[nameEnd])
        {
            nameEnd += 1
        }
        return nameEnd > index && nameEnd < line.count && line[nameEnd] == UInt8(ascii: "(")
            && line[nameEnd...].contains(UInt8(ascii: "="))
    }

    /// Why nothing matched, naming what the file starts with.
    var unrecognisedReason: String {
        if head.isEmpty { return "the file is empty" }
        if let compression = compressionName {
            return "the file is \(compression)-compressed; decompress it first"
        }
        let text = textStart
        if text < head.count {
            switch head[text] {
            case ASCII.openBrace:
                return "a JSON object that is not a Drain trace (no drain_trace header), a Chrome trace (no traceEvents) or a MetricKit payload; it starts with \(preview)"
            case ASCII.openBracket:
                return "a JSON array that is not a Chrome trace (no objects with \"ph\"); it starts with \(preview)"
            default:
                break
            }
        }
        return "not a format Drain reads (" + Importers.all.map(\.displayName).joined(separator: ", ") + "); it starts with \(preview)"
    }

    private var compressionName: String? {
        if head.starts(with: [0x1F, 0x8B]) { return "gzip" }
        if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return "zstd" }
        if head.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "xz" }
        if head.starts(with: Array("BZh".utf8)) { return "bzip2" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "zip" }
        return nil
    }

    /// The first bytes: quoted text if they are printable UTF-8, hex otherwise.
    private var preview: String {
        let prefix = Array(head.prefix(32))
        let printable = prefix.allSatisfy { $0 >= 0x20 || ASCII.isBlank($0) }
        // Valid UTF-8 is what decodes back to the same bytes.
        if printable, String(decoding: prefix, as: UTF8.self).utf8.elementsEqual(prefix) {
            return prefix.withUnsafeBytes { QuotedText.quote($0) } + (head.count > prefix.count ? "…" : "")
        }
        return "bytes " + prefix.prefix(16).map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    }
}
