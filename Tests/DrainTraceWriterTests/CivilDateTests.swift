import DrainTraceWriter
import Testing

@Suite struct CivilDateTests {
    @Test func knownDaysBothWays() {
        let known: [(Int64, CivilDate)] = [
            (0, CivilDate(year: 1970, month: 1, day: 1)),
            (-1, CivilDate(year: 1969, month: 12, day: 31)),
            (11_016, CivilDate(year: 2000, month: 2, day: 29)),
            (11_017, CivilDate(year: 2000, month: 3, day: 1)),
            (-25_508, CivilDate(year: 1900, month: 3, day: 1)),
            (-25_509, CivilDate(year: 1900, month: 2, day: 28)),
            (20_779, CivilDate(year: 2026, month: 11, day: 22)),
            (-719_468, CivilDate(year: 0, month: 3, day: 1)),
            (-719_469, CivilDate(year: 0, month: 2, day: 29)),
            (-719_529, CivilDate(year: -1, month: 12, day: 31)),
            (-719_893, CivilDate(year: -1, month: 1, day: 1)),
            (2_932_896, CivilDate(year: 9999, month: 12, day: 31)),
        ]
        for (days, date) in known {
            #expect(date.daysSinceEpoch == days, "\(date)")
            #expect(CivilDate(daysSinceEpoch: days) == date, "\(days)")
        }
    }

    /// Every day from 1600 BC-ish to AD 2400 converts there and back, and consecutive days
    /// are consecutive dates: leap days of 1600, 2000 and 2400 exist, those of 1700, 1800,
    /// 1900 and 2100 do not.
    @Test func everyDayRoundTripsAcrossLeapYearsAndNegativeYears() {
        var previous = CivilDate(daysSinceEpoch: -1_300_000 - 1)
        for days in Int64(-1_300_000)...Int64(157_000) {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            if date.day == 1 {
                #expect(previous.day == CivilDate.daysIn(month: previous.month, year: previous.year))
            } else {
                #expect(date.day == previous.day + 1 && date.month == previous.month)
            }
            previous = date
        }
        #expect(CivilDate.isValid(year: 2000, month: 2, day: 29))
        #expect(CivilDate.isValid(year: 2400, month: 2, day: 29))
        #expect(CivilDate.isValid(year: -4, month: 2, day: 29))
        #expect(!CivilDate.isValid(year: 1900, month: 2, day: 29))
        #expect(!CivilDate.isValid(year: 2100, month: 2, day: 29))
        #expect(!CivilDate.isValid(year: 2026, month: 13, day: 1))
        #expect(!CivilDate.isValid(year: 2026, month: 4, day: 31))
    }

    @Test func timestampsAreRFC3339InUTCWithNanoseconds() {
        func text(_ nanoseconds: Int64) -> String {
            var line = JSONLine()
            line.format(bound: JSONFormatter.timestampBound) { $0.timestamp(nanosecondsSinceEpoch: nanoseconds) }
            return String(decoding: line.bytes, as: UTF8.self)
        }
        #expect(text(1_795_341_600 * 1_000_000_000 + 123) == "2026-11-22T10:00:00.000000123Z")
        #expect(text(0) == "1970-01-01T00:00:00.000000000Z")
        #expect(text(-1) == "1969-12-31T23:59:59.999999999Z")
        #expect(text(951_782_400 * 1_000_000_000) == "2000-02-29T00:00:00.000000000Z")
    }
}
