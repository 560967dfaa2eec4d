/// A small HTML tokenizer for the tests: finds every start and end tag with its attributes,
/// skipping comments and the raw text of `<script>` and `<style>` elements, following the
/// HTML tokenizer's rules closely enough to see what a browser would see as markup.
struct HTMLTagScanner {
    struct Tag: Equatable {
        var name: String
        var isEnd: Bool
        var attributes: [(name: String, value: String)]

        static func == (lhs: Tag, rhs: Tag) -> Bool {
            lhs.name == rhs.name && lhs.isEnd == rhs.isEnd && lhs.attributes.elementsEqual(rhs.attributes) { $0 == $1 }
        }
    }

    /// The tags of `html` in document order, with the raw text of each script element.
    static func scan(_ html: String) -> (tags: [Tag], scripts: [String]) {
        let scalars = Array(html.unicodeScalars)
        var tags: [Tag] = []
        var scripts: [String] = []
        var index = 0
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { [" ", "\t", "\n", "\r", "\u{0C}"].contains(scalar) }
        while index < scalars.count {
            guard scalars[index] == "<", index + 1 < scalars.count else {
                index += 1
                continue
            }
            if scalars[index + 1] == "!" {
                let close = scalars.count > index + 3 && scalars[index + 2] == "-" && scalars[index + 3] == "-" ? "-->" : ">"
                index = position(of: close, in: scalars, from: index + 2).map { $0 + close.unicodeScalars.count } ?? scalars.count
                continue
            }
            let isEnd = scalars[index + 1] == "/"
            var cursor = index + (isEnd ? 2 : 1)
            guard cursor < scalars.count, isLetter(scalars[cursor]) else {
                index += 1
                continue
            }
            var name = ""
            while cursor < scalars.count, !isSpace(scalars[cursor]), scalars[cursor] != ">", scalars[cursor] != "/" {
                name.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
            var attributes: [(String, String)] = []
            while cursor < scalars.count, scalars[cursor] != ">" {
                if isSpace(scalars[cursor]) || scalars[cursor] == "/" {
                    cursor += 1
                    continue
                }
                var attribute = ""
                while cursor < scalars.count, !isSpace(scalars[cursor]), !["=", ">", "/"].contains(scalars[cursor]) {
                    attribute.unicodeScalars.append(scalars[cursor])
                    cursor += 1
                }
                var value = ""
                if cursor < scalars.count, scalars[cursor] == "=" {
                    cursor += 1
                    if cursor < scalars.count, scalars[cursor] == "\"" || scalars[cursor] == "'" {
                        let quote = scalars[cursor]
                        cursor += 1
                        while cursor < scalars.count, scalars[cursor] != quote {
                            value.unicodeScalars.append(scalars[cursor])
                            cursor += 1
                        }
                        cursor += 1
                    } else {
                        while cursor < scalars.count, !isSpace(scalars[cursor]), scalars[cursor] != ">" {
                            value.unicodeScalars.append(scalars[cursor])
                            cursor += 1
                        }
                    }
                }
                attributes.append((attribute.lowercased(), value))
            }
            let tag = Tag(name: name.lowercased(), isEnd: isEnd, attributes: attributes)
            tags.append(tag)
            index = cursor + 1
            if !isEnd, tag.name == "script" || tag.name == "style" {
                let close = position(of: "</\(tag.name)", in: scalars, from: index) ?? scalars.count
                if tag.name == "script" {
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars[index..<close])
                    scripts.append(text)
                }
                index = close
            }
        }
        return (tags, scripts)
    }

    /// Where `needle` (ASCII) first occurs from `start`, ignoring ASCII case.
    private static func position(of needle: String, in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let target = Array(needle.lowercased().unicodeScalars)
        guard !target.isEmpty else { return nil }
        var index = start
        while index + target.count <= scalars.count {
            if target.indices.allSatisfy({ asciiLowercase(scalars[index + $0]) == target[$0] }) { return index }
            index += 1
        }
        return nil
    }

    private static func asciiLowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
