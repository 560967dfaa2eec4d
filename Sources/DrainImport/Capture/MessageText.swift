import DrainTrace

/// Untrusted capture text (interface names) made safe for a diagnostic or error message:
/// `UntrustedText.quoted`, kept under this name for the capture importer's call sites.
enum MessageText {
    static func quoted(_ text: String) -> String {
        UntrustedText.quoted(text)
    }
}
