import DrainRender

/// A comparison as CSV tables (RFC 4180, CRLF), one per concern, for spreadsheets:
/// `runs`, `summary` (run-level figures and energy per category), `endpoints`, `files`,
/// `threads`, `findings` and `timeline`. Text is guarded against formula injection.
public struct CompareCSVRenderer: Sendable {
    public init() {}

    public func tables(_ comparison: Comparison) -> [RenderedTable] {
        [runs(comparison), summary(comparison), keyed("endpoints", comparison.endpoints, comparison), keyed("files", comparison.files, comparison),
         keyed("threads", comparison.threads, comparison), findings(comparison), timeline(comparison)]
            .map { RenderedTable(name: $0.name, text: $0.csv) }
    }

    private func number(_ value: Double?) -> CSVField {
        value.map { .number(MachineNumber.compact($0, digits: 9)) } ?? .empty
    }

    /// `runs`: one record per run.
    func runs(_ comparison: Comparison) -> CSVTable {
        var table = CSVTable(name: "runs", header: ["run", "label", "reference", "model", "inputs", "duration_s", "active_duration_s", "start", "anchor_s"])
        for (index, run) in comparison.runs.enumerated() {
            table.append([
                .integer(index), .text(run.label), .text(index == comparison.reference ? "yes" : "no"), .text(run.model),
                .text(run.inputs.joined(separator: ";")), number(run.durationS), number(run.activeDurationS), .text(run.start), number(run.anchorS),
            ])
        }
        return table
    }

    /// `summary`: one record per figure and run, with the change against the reference.
    func summary(_ comparison: Comparison) -> CSVTable {
        var table = CSVTable(name: "summary", header: ["metric", "unit", "run", "value", "per_hour", "delta", "delta_pct", "delta_per_hour"])
        for row in comparison.summary + comparison.categories {
            for index in row.values.indices {
                let change = row.changes[index]
                table.append([
                    .text(row.name), .text(row.unit), .integer(index), number(row.values[index]), number(row.perHour[index]), number(change?.delta),
                    number(change?.deltaPct), number(change?.deltaPerHour),
                ])
            }
        }
        return table
    }

    /// `endpoints`, `files`, `threads`: one record per key and run.
    func keyed(_ name: String, _ rows: [KeyRow], _ comparison: Comparison) -> CSVTable {
        var table = CSVTable(name: name, header: ["key", "run", "energy_j", "presence", "status", "delta_j", "delta_pct"])
        for row in rows {
            for index in row.values.indices {
                table.append([
                    .text(row.key), .integer(index), number(row.values[index]), .text(row.presence[index].rawValue), .text(row.status[index].rawValue),
                    number(row.changes[index]?.delta), number(row.changes[index]?.deltaPct),
                ])
            }
        }
        return table
    }

    /// `findings`: one record per finding key and run.
    func findings(_ comparison: Comparison) -> CSVTable {
        var table = CSVTable(name: "findings", header: ["key", "rule", "title", "run", "severity", "energy_j", "status"])
        for row in comparison.findings {
            for index in row.status.indices {
                table.append([
                    .text(row.key), .text(row.rule), .text(row.title), .integer(index), .text(row.severity[index]), number(row.energyJ[index]),
                    .text(row.status[index].rawValue),
                ])
            }
        }
        return table
    }

    /// `timeline`: one record per run and bin: its aligned start and energy per category.
    func timeline(_ comparison: Comparison) -> CSVTable {
        let categories = comparison.timeline.categories
        var table = CSVTable(name: "timeline", header: ["run", "bin", "start_s"] + categories.map { "\($0)_j" } + ["memory_peak_bytes", "difference_j"])
        let width = comparison.timeline.binS
        for (index, run) in comparison.timeline.runs.enumerated() {
            let difference = comparison.timeline.difference[index]
            for (bin, row) in run.energyJ.enumerated() {
                table.append(
                    [.integer(index), .integer(bin), number(run.offsetS + Double(bin) * width)] + row.map { number($0) }
                        + [number(run.memoryPeakBytes[bin]), number(bin < difference.count ? difference[bin] : nil)])
            }
        }
        return table
    }
}
