#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import DrainImport

/// Runs the command under strace and reads its log back with `StraceImporter`.
enum StraceLauncher {
    /// `strace -f -ttt -T -yy -q -o LOG -- COMMAND…`: follow children and threads, epoch
    /// timestamps (the wall clock the samples use too), time in each call, descriptors named
    /// with their paths and addresses, no attach messages on the command's standard error.
    static func arguments(strace: String, log: String, command: [String]) -> [String] {
        [strace, "-f", "-ttt", "-T", "-yy", "-q", "-o", log, "--"] + command
    }

    /// The path of `strace` on `PATH`.
    ///
    /// - Throws: `RecordError.straceMissing` (69) when there is none.
    static func locate(path: String? = getenv("PATH").map { String(cString: $0) }) throws(RecordError) -> String {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/strace"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw .straceMissing
    }

    /// Reads the log strace wrote.
    static func read(log: String) throws(RecordError) -> ImportedInput {
        do {
            return try StraceImporter.read(path: log)
        } catch {
            throw .straceImport(error)
        }
    }
}
#endif
