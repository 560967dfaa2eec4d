extension String {
    /// The string cut to `limit` Unicode scalars, the last an ellipsis when cut: scalars rather
    /// than characters, so the bound holds even for a hostile run of combining marks.
    func cut(toScalars limit: Int) -> String {
        guard unicodeScalars.count > limit else { return self }
        var cut = ""
        cut.unicodeScalars.append(contentsOf: unicodeScalars.prefix(limit - 1))
        return cut + "…"
    }
}
