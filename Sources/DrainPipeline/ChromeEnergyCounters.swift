import DrainImport
import DrainTrace

/// The `power (mW)` and `energy (J)` counter tracks of a Chrome trace export, from energy per
/// bin and category: the average power of each category over each bin, and its cumulative
/// energy. Only categories that spent energy get a series; a last sample at the end of the
/// run closes both tracks. Shared by the export of a priced run and of a saved report.
struct ChromeEnergyCounters {
    /// Category names, in the order `joules(bin, category)` indexes them.
    let categories: [String]
    let binCount: Int
    let binWidth: Nanoseconds
    /// The run's end; the last bin is cut there.
    let end: Nanoseconds
    /// Joules of category index `category` in bin `bin`.
    let joules: (_ bin: Int, _ category: Int) -> Double
    /// Where bin `bin` starts: `bin × binWidth`, or later for a run with time gaps, whose
    /// bins start again after each gap (`TimelineBins.segments`).
    var start: (_ bin: Int) -> Nanoseconds

    init(
        categories: [String], binCount: Int, binWidth: Nanoseconds, end: Nanoseconds,
        joules: @escaping (_ bin: Int, _ category: Int) -> Double, start: ((_ bin: Int) -> Nanoseconds)? = nil
    ) {
        self.categories = categories
        self.binCount = binCount
        self.binWidth = binWidth
        self.end = end
        self.joules = joules
        self.start = start ?? { Nanoseconds($0) * binWidth }
    }

    func write(into output: inout ChromeEventWriter) {
        let spending = categories.indices.filter { category in (0..<binCount).contains { joules($0, category) != 0 } }
        guard !spending.isEmpty else { return }
        var cumulative = [Double](repeating: 0, count: categories.count)
        func sample(at time: Nanoseconds, bin: Int?) {
            output.counter(name: "power (mW)", category: ChromeTraceCategory.priced, time: min(time, end)) { arguments in
                let seconds = Clock.seconds(min(time + binWidth, end) - time)
                for category in spending {
                    let power = bin.map { seconds > 0 ? joules($0, category) / seconds * 1000 : 0 } ?? 0
                    arguments.number(categories[category], power)
                }
            }
            output.counter(name: "energy (J)", category: ChromeTraceCategory.priced, time: min(time, end)) { arguments in
                for category in spending { arguments.number(categories[category], cumulative[category]) }
            }
        }
        for bin in 0..<binCount {
            let binStart = start(bin)
            sample(at: binStart, bin: bin)
            for category in spending { cumulative[category] += joules(bin, category) }
            // A time gap follows: power drops to zero where the bin ends, not where the next starts.
            if bin + 1 < binCount, start(bin + 1) > binStart + binWidth { sample(at: binStart + binWidth, bin: nil) }
        }
        sample(at: binCount > 0 ? start(binCount - 1) + binWidth : 0, bin: nil)
    }
}
