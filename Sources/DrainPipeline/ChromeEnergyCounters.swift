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

    func write(into output: inout ChromeEventWriter) {
        let spending = categories.indices.filter { category in (0..<binCount).contains { joules($0, category) != 0 } }
        guard !spending.isEmpty else { return }
        var cumulative = [Double](repeating: 0, count: categories.count)
        for bin in 0...binCount {
            let start = Nanoseconds(bin) * binWidth
            let time = min(start, end)
            output.counter(name: "power (mW)", category: ChromeTraceCategory.priced, time: time) { arguments in
                let seconds = Clock.seconds(min(start + binWidth, end) - start)
                for category in spending {
                    let power = bin < binCount && seconds > 0 ? joules(bin, category) / seconds * 1000 : 0
                    arguments.number(categories[category], power)
                }
            }
            output.counter(name: "energy (J)", category: ChromeTraceCategory.priced, time: time) { arguments in
                for category in spending { arguments.number(categories[category], cumulative[category]) }
            }
            if bin < binCount {
                for category in spending { cumulative[category] += joules(bin, category) }
            }
        }
    }
}
