/// `--store` may be given without a value (the default store); ArgumentParser options always
/// take one, so the command line is rewritten before parsing: a bare `--store` gets the value
/// `default`, which stands for `DRAIN_STORE` or the default SQLite file.
public enum StoreArguments {
    /// The value a bare `--store` stands for; `--store default` is the same.
    public static let defaultMarker = "default"

    /// `arguments` with `default` inserted after each `--store` that is not followed by a
    /// value: the next word is missing, an option, or has no URL scheme (a file name; a
    /// `store:` run reference is not a store either).
    public static func expandingBareStore(_ arguments: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(arguments.count + 1)
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            result.append(argument)
            index += 1
            if argument == "--" {
                result += arguments[index...]
                break
            }
            guard argument == "--store" else { continue }
            if index == arguments.endIndex || !Self.isStoreValue(arguments[index]) { result.append(defaultMarker) }
        }
        return result
    }

    private static func isStoreValue(_ word: String) -> Bool {
        guard word != defaultMarker else { return true }
        guard !word.hasPrefix("-"), !word.hasPrefix(StoredRunSource.prefix), let colon = word.firstIndex(of: ":") else { return false }
        let scheme = word[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-" }
    }
}
