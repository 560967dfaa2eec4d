import DrainTrace

/// Counts the calls of system calls that make no events (`mmap`, `brk`, `futex`…), by name,
/// for one grouped diagnostic. One hash lookup of the packed name per call; memory grows with
/// the number of distinct names (a few hundred at most).
struct StraceUnmappedCalls {
    private var counts: [PackedName: Int] = [:]
    /// Calls whose names are too long to pack (none of Linux's are).
    private var longNames = 0

    var total: Int { counts.values.reduce(longNames, +) }

    /// Counts one call of `name` (followed by readable padding).
    @inline(__always)
    mutating func count(_ name: UnsafeRawBufferPointer) {
        guard let packed = PackedName(padded: name) else {
            longNames += 1
            return
        }
        counts[packed, default: 0] += 1
    }

    /// Records one `unmapped-syscall` info diagnostic naming the most frequent calls.
    func record(into diagnostics: inout ImportDiagnostics) {
        let total = total
        guard total > 0 else { return }
        let frequent = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.string < $1.key.string }
        let shown = frequent.prefix(8).map { "\($0.key.string) ×\($0.value)" }.joined(separator: ", ")
        let kinds = counts.count + (longNames > 0 ? 1 : 0)
        diagnostics.record(
            .info, code: "unmapped-syscall",
            message: "\(total) calls of \(kinds) system calls that make no events were skipped (\(shown)\(kinds > 8 ? ", …" : ""))",
            count: total)
    }
}

extension PackedName: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}
