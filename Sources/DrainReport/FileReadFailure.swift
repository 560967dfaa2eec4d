import Foundation

/// The system's reason a file could not be read (`No such file or directory`), from the
/// error Foundation threw: what every loader of Drain's own files (reports, budgets,
/// baselines) says after the path.
public enum FileReadFailure {
    public static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
            return String(cString: strerror(ENOENT))
        }
        return nsError.localizedDescription
    }
}
