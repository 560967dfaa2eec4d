import Foundation

/// Times as the store keeps them: UTC RFC 3339 text with milliseconds, of fixed width, which
/// sorts as text in both engines and reads in any SQL client.
public enum StoredTime {
    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `text` (a date or an RFC 3339 time) in the stored form, for comparisons with stored
    /// times; `nil` when it is neither.
    public static func normalize(_ text: String) -> String? {
        parse(text).map(format)
    }

    /// `2026-11-24`, `2026-11-24T07:30:00Z` or with fractional seconds and an offset.
    static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: .iso8601.year().month().day().dateSeparator(.dash)) { return date }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
