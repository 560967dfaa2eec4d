import DrainTrace
extension ModelCatalog {
    /// The text of `drain models list`: one line per built-in model, name and title, the
    /// default marked. Throws only if a built-in model is broken (the tests load every one).
    public static func listText() throws(ModelError) -> String {
        var rows: [(String, String)] = []
        for name in builtinNames {
            let model = try load(builtin: name)
            rows.append((name == defaultName ? "\(name) (default)" : name, UntrustedText.escaped(model.title)))
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(to: width) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }

    /// The text of `drain models show NAME`: the model's name and title, then every value
    /// grouped by section (`cpu`, `radio.lte`, …), each number with its unit and source.
    /// Text from the model (title, sources, threshold names) has control characters escaped.
    public static func showText(_ model: DeviceModel) -> String {
        var groups: [(title: String, rows: [[String]])] = []
        func add(_ path: [String], _ row: [String]) {
            let title = path.dropLast().joined(separator: ".")
            if groups.last?.title == title {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((title, [row]))
            }
        }
        for field in model.fields where field.path.count > 1 {
            add(field.path, Self.row(key: field.path.last ?? "", field.value))
        }
        for (rule, parameters) in (model.thresholds ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (parameter, value) in parameters.sorted(by: { $0.key < $1.key }) {
                add(["thresholds", UntrustedText.escaped(rule), parameter], Self.row(key: parameter, .number(value)))
            }
        }
        let keyWidth = groups.flatMap(\.rows).map { $0[0].count }.max() ?? 0
        let valueWidth = groups.flatMap(\.rows).map { $0[1].count }.max() ?? 0
        var text = "\(UntrustedText.escaped(model.name)): \(UntrustedText.escaped(model.title))\n"
        for group in groups {
            text += "\n\(group.title)\n"
            for row in group.rows {
                let line = "  " + row[0].padding(to: keyWidth) + "  " + row[1].padding(to: valueWidth) + "  " + row[2]
                text += line.trimmingTrailingSpaces + "\n"
            }
        }
        return text
    }

    private static func row(key: String, _ value: ModelField.Value) -> [String] {
        switch value {
        case .text(let text):
            return [UntrustedText.escaped(key), UntrustedText.escaped(text), ""]
        case .number(let number):
            let unit = unit(ofKey: key)
            let amount = formatted(number.value) + (unit.isEmpty ? "" : " " + unit)
            return [UntrustedText.escaped(key), amount, UntrustedText.escaped(number.source)]
        }
    }

    /// The unit a key's suffix names: `_s` seconds, `_w` watts, `_mw_per_mbps`, `per_mb_j`
    /// joules per megabyte… Empty when the key names none.
    static func unit(ofKey key: String) -> String {
        let parts = key.split(separator: "_").map(String.init)
        if key.hasSuffix("_mw_per_mbps") { return "mW/Mbps" }
        if parts.count == 3, parts[0] == "per", let base = baseUnits[parts[2]] {
            return base + "/" + (parts[1] == "mb" ? "MB" : parts[1])
        }
        return parts.count > 1 ? baseUnits[parts[parts.count - 1]] ?? "" : ""
    }

    private static let baseUnits = ["s": "s", "w": "W", "mw": "mW", "j": "J", "wh": "Wh", "bytes": "bytes"]

    /// Shortest round-trip text of a number, without a trailing `.0` for whole numbers, so the
    /// listing is the same on every machine and locale.
    static func formatted(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
