import DrainTrace

extension Timeline {
    /// The string for `id`, or `fallback` when the input did not name it (id 0).
    func name(_ id: StringID, or fallback: String) -> String {
        id == 0 ? fallback : strings[id]
    }
}

/// Fixed-point text for messages, locale-independent so reports stay byte-identical.
func fixed(_ value: Double, _ digits: Int = 2) -> String {
    Formatting.fixed(value, digits: digits)
}
