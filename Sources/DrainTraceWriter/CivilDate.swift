/// A date of the proleptic Gregorian calendar, converted to and from days since
/// 1970-01-01: the one calendar routine of the trace writers and readers.
///
/// Whole 400-year eras (146 097 days each) are counted from 0000-03-01, so that the leap
/// day ends each year (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"). Exact
/// for every year an `Int` day count reaches, negative years (astronomical numbering:
/// year 0 is 1 BC) included. O(1).
public struct CivilDate: Equatable, Hashable, Sendable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to the number of days in the month.
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (before it when negative).
    public init(daysSinceEpoch days: Int64) {
        // 719 468 days lie between 0000-03-01 and 1970-01-01.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153  // March = 0 … February = 11
        day = Int(dayOfYear - (153 * marchMonth + 2) / 5 + 1)
        month = Int(marchMonth < 10 ? marchMonth + 3 : marchMonth - 9)
        year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date (negative before it).
    public var daysSinceEpoch: Int64 {
        let marchYear = Int64(month <= 2 ? year - 1 : year)
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let marchMonth = Int64((month + 9) % 12)
        let dayOfYear = (153 * marchMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether `year` has a 29 February.
    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1 to 12) of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether `month` is 1 to 12 and `day` exists in that month of `year`.
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && (1...daysIn(month: month, year: year)).contains(day)
    }
}
