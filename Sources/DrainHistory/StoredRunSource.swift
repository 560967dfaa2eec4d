import DrainPipeline
import DrainReport

/// Runs named on a command line where a report file could be: `store:RUN_ID` and
/// `store:BRANCH@COMMIT` are stored runs, anything else goes to `ReportSource`.
public enum StoredRunSource {
    public static let prefix = "store:"

    /// Whether `run` names a stored run.
    public static func isStored(_ run: String) -> Bool { run.hasPrefix(prefix) }

    /// The report of each of `runs`, in order; the store is opened (to read) only when a run
    /// names it.
    public static func reports(_ runs: [String], options: AnalysisOptions, store location: StoreLocation?, scenario: String?)
        async throws(HistoryError) -> [Report]
    {
        var store: RunStore?
        do throws(HistoryError) {
            var reports: [Report] = []
            for run in runs {
                if isStored(run) {
                    if store == nil {
                        guard let location else { throw .store(.usage("\(run) names a stored run: give --store URL")) }
                        do { store = try await RunStore.open(location, access: .read) } catch { throw .store(error) }
                    }
                    let reference = String(run.dropFirst(prefix.count))
                    do {
                        reports.append(try await store!.report(try await store!.resolve(reference, scenario: scenario)))
                    } catch {
                        throw .store(error)
                    }
                } else {
                    do { reports.append(try ReportSource.report(ofRun: run, options: options)) } catch { throw .analysis(error) }
                }
            }
            await store?.close()
            return reports
        } catch {
            await store?.close()
            throw error
        }
    }
}
