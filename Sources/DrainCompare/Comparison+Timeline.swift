import DrainReport

extension Comparison {
    /// The runs' timelines at one common width and on one aligned axis.
    ///
    /// Report bins start at each run's time zero and are 1, 2 or 5 × 10ⁿ s wide
    /// (`docs/reports.md#timeline-bins`); the common width is their least common multiple (in
    /// milliseconds), which every width divides, so re-binning only sums whole bins (memory
    /// takes the maximum) and loses nothing. Each run is then placed at `−anchor`.
    static func timeline(_ reports: [Report], anchors: [Double], binS requested: Double?) throws(ComparisonError) -> ComparedTimeline {
        let widths = reports.map { max(1, Int64(($0.timeline.binS * 1_000).rounded())) }
        let common: Int64
        if let requested {
            let milliseconds = Int64((requested * 1_000).rounded())
            guard milliseconds > 0, widths.allSatisfy({ milliseconds % $0 == 0 }) else {
                throw .binWidth(requested: requested, widths: reports.map(\.timeline.binS))
            }
            common = milliseconds
        } else {
            common = widths.reduce(1) { lcm($0, $1) }
        }
        let binS = Double(common) / 1_000
        let categories = reports[0].timeline.categories
        let runs = zip(reports, zip(widths, anchors)).map { report, placement in
            runTimeline(report, factor: Int(common / placement.0), categories: categories, anchor: placement.1)
        }
        let difference = runs.indices.map { index in
            index == 0 ? [] : Self.difference(runs[index], from: runs[0], binS: binS)
        }
        return ComparedTimeline(binS: binS, categories: categories, runs: runs, difference: difference)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
    static func lcm(_ a: Int64, _ b: Int64) -> Int64 { a / gcd(a, b) * b }

    /// `report`'s timeline with every `factor` bins summed into one, its categories in
    /// `categories`' order, shifted by `−anchor`.
    static func runTimeline(_ report: Report, factor: Int, categories: [String], anchor: Double) -> RunTimeline {
        let source = report.timeline
        let columns = categories.map { source.categories.firstIndex(of: $0) }
        let count = (source.energyJ.count + factor - 1) / factor
        var energy = [[Double]](repeating: [Double](repeating: 0, count: categories.count), count: count)
        var memory = [Double?](repeating: nil, count: count)
        for (bin, row) in source.energyJ.enumerated() {
            for (category, column) in columns.enumerated() {
                if let column, column < row.count { energy[bin / factor][category] += row[column] }
            }
        }
        for (bin, peak) in source.memoryPeakBytes.enumerated() {
            guard let peak else { continue }
            memory[bin / factor] = max(memory[bin / factor] ?? peak, peak)
        }
        return RunTimeline(
            offsetS: -anchor, energyJ: energy, memoryPeakBytes: memory,
            lifecycle: source.lifecycle.map { AlignedEvent(timeS: $0.timeS - anchor, name: $0.state) },
            marks: source.marks.map { AlignedEvent(timeS: $0.timeS - anchor, name: $0.name) },
            radio: report.radio.lane.map { AlignedSpan(link: $0.link, state: $0.state, startS: $0.startS - anchor, endS: $0.endS - anchor) })
    }

    /// `run`'s total energy minus `reference`'s, per bin of the reference's grid, from the
    /// reference's first bin to the later of the two ends. Where the runs' grids are offset
    /// by alignment, a run's bin is spread over the reference bins it overlaps in proportion
    /// to the overlap (energy taken as even within a bin); energy before the reference's
    /// first bin is left out.
    static func difference(_ run: RunTimeline, from reference: RunTimeline, binS: Double) -> [Double] {
        let origin = reference.offsetS
        let runEnd = run.offsetS + Double(run.energyJ.count) * binS
        let referenceEnd = origin + Double(reference.energyJ.count) * binS
        let count = max(reference.energyJ.count, Int(((max(runEnd, referenceEnd) - origin) / binS).rounded(.up)))
        var result = [Double](repeating: 0, count: count)
        for (bin, row) in reference.energyJ.enumerated() { result[bin] -= row.reduce(0, +) }
        for (bin, row) in run.energyJ.enumerated() {
            let total = row.reduce(0, +)
            let start = run.offsetS + Double(bin) * binS
            let end = start + binS
            let first = max(0, Int(((start - origin) / binS).rounded(.down)))
            let last = min(count - 1, Int(((end - origin) / binS).rounded(.up)) - 1)
            guard first <= last else { continue }
            for target in first...last {
                let low = origin + Double(target) * binS
                let overlap = min(end, low + binS) - max(start, low)
                if overlap > 0 { result[target] += total * overlap / binS }
            }
        }
        return result
    }
}
