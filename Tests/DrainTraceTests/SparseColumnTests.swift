import Testing

@testable import DrainTrace

/// Columns that store only what differs from their default read back exactly what was
/// appended, across the 64-row words of their index, bit for bit.
@Suite struct SparseColumnTests {
    @Test func readsBackEveryValueAppended() {
        // 300 rows: the default on most, values (one of them -0.0, one NaN) on some, a word of
        // 64 rows (128…191) all set.
        let values: [Double] = (0..<300).map { row in
            if row == 7 { return -0.0 }
            if row == 8 { return .nan }
            if (128..<192).contains(row) || row % 37 == 0 { return Double(row) + 0.5 }
            return 0
        }
        var column = SparseColumn<Double>(defaultValue: 0)
        for value in values { column.append(value) }
        #expect(column.count == 300)
        #expect(zip(column, values).allSatisfy { $0.bitPattern == $1.bitPattern })
        #expect(column[7].sign == .minus && column[8].isNaN && column[9] == 0)
        // Built at once, and permuted (reversed), the same values.
        #expect(SparseColumn(values, defaultValue: 0) == column)
        let reversed = column.permuted(Array((0..<300).reversed()))
        #expect(zip(reversed, values.reversed()).allSatisfy { $0.bitPattern == $1.bitPattern })
        #expect(reversed != column)
    }

    @Test func aColumnOfTheDefaultStoresNoValue() {
        let column = SparseColumn(repeatElement(Int64(-1), count: 1_000), defaultValue: -1)
        #expect(column.allSatisfy { $0 == -1 })
        #expect(column.count == 1_000)
        let other = SparseColumn([Int64](repeating: -1, count: 999) + [5], defaultValue: -1)
        #expect(other.last == 5 && other.dropLast().allSatisfy { $0 == -1 })
    }

    @Test func membersKnowTheirPlace() {
        let members = RowSet(count: 200) { $0 % 3 == 0 || (64..<128).contains($0) }
        var place = 0
        for row in 0..<200 {
            if row % 3 == 0 || (64..<128).contains(row) {
                #expect(members.place(of: row) == place)
                place += 1
            } else {
                #expect(members.place(of: row) == nil)
            }
        }
        #expect(members.memberCount == place && members.count == 200)
    }

    @Test func aSetOfEveryRowPlacesEachAtItselfUntilARowIsLeftOut() {
        var members = RowSet(count: 70) { _ in true }
        #expect((0..<70).allSatisfy { members.place(of: $0) == $0 })
        // Past the last row, in the last word's unused bits: not a member.
        #expect(members.place(of: 70) == nil && members.place(of: 127) == nil)
        members.append(false)
        members.append(true)
        #expect(members.place(of: 69) == 69 && members.place(of: 70) == nil && members.place(of: 71) == 70)
        // A dense column reads its values in place; one default value makes it sparse again.
        var column = SparseColumn((1...100).map(Int64.init), defaultValue: 0)
        #expect(column[99] == 100)
        column.append(0)
        column.append(7)
        #expect(column[99] == 100 && column[100] == 0 && column[101] == 7)
    }

    @Test func blocksAppendedAtOnceEqualTheValuesAppendedOneByOne() {
        // 37 rows first, so that the blocks start inside a word; then a block of mixed values, a
        // run of the default and a run of a value, crossing several words each.
        let head: [Int64] = (0..<37).map { $0 % 5 == 0 ? 0 : Int64($0) }
        let block: [Int64] = (0..<200).map { $0 % 7 == 3 ? 0 : -Int64($0) - 1 }
        var column = SparseColumn(head, defaultValue: 0)
        var moved = block
        column.append(movingContentsOf: &moved)
        column.append(repeating: 0, count: 100)
        column.append(repeating: 9, count: 70)
        let expected = head + block + [Int64](repeating: 0, count: 100) + [Int64](repeating: 9, count: 70)
        #expect(moved.isEmpty)
        #expect(column == expected)
        #expect(column.stored.memberCount == expected.filter { $0 != 0 }.count)
        #expect((0..<expected.count).allSatisfy { column.stored.place(of: $0) != nil || expected[$0] == 0 })
    }

    /// Rows appended in bulk, by a predicate or all alike, make the very set that appending them
    /// one at a time makes, whatever the rows before them and however many words they span.
    @Test(arguments: [0, 1, 63, 64, 100], [0, 1, 64, 130, 200])
    func rowsAppendedInBulkEqualRowsAppendedOneByOne(before: Int, count: Int) {
        var first = RowSet(count: before) { $0 % 3 == 0 }
        var second = first
        var third = first
        var oneByOne = first
        first.append(count: count) { $0 % 5 != 2 }
        for row in 0..<count { oneByOne.append(row % 5 != 2) }
        #expect(first == oneByOne)
        for isMember in [true, false] {
            var expected = second
            for _ in 0..<count { expected.append(isMember) }
            second.append(repeating: isMember, count: count)
            #expect(second == expected)
        }
        third.append(repeating: true, count: count)
        #expect(third.memberCount == (0..<before).filter { $0 % 3 == 0 }.count + count)
        #expect(third.count == before + count && (before..<before + count).allSatisfy { third.place(of: $0) != nil })
    }

    /// A set appended to another, a word at a time, is the set that appending its rows one at a
    /// time makes, wherever in a word the first set ends and whatever the second's last word holds.
    @Test(arguments: [0, 1, 63, 64, 100], [0, 1, 63, 64, 65, 130, 200])
    func aSetAppendedWholeEqualsItsRowsAppendedOneByOne(before: Int, count: Int) {
        let isMember = { (row: Int) in row % 5 != 2 || (64..<128).contains(row) }
        let other = RowSet(count: count, isMember: isMember)
        var whole = RowSet(count: before) { $0 % 3 == 0 }
        var oneByOne = whole
        whole.append(contentsOf: other)
        for row in 0..<count { oneByOne.append(isMember(row)) }
        #expect(whole == oneByOne)
        #expect((0..<count).allSatisfy { (whole.place(of: before + $0) != nil) == isMember($0) })
        // A set of every row, appended to a set that ends inside a word.
        var full = RowSet(count: before) { _ in false }
        full.append(contentsOf: RowSet(count: count) { _ in true })
        #expect(full.memberCount == count && full.count == before + count)
        #expect((0..<count).allSatisfy { full.place(of: before + $0) == $0 })
    }

    /// Moving a later column's rows onto a column gives the values that appending them one by one
    /// gives: through the bulk path when the transform keeps stored values apart from the
    /// default, and row by row when it maps one onto the default or the defaults differ.
    @Test(arguments: [0, 37, 64])
    func rowsMovedFromAnotherColumnEqualThoseAppendedOneByOne(before: Int) {
        let head: [UInt32] = (0..<before).map { $0 % 4 == 0 ? 0 : UInt32($0) }
        let later: [UInt32] = (0..<150).map { $0 % 6 == 1 ? 0 : UInt32($0 % 9) + 1 }
        let shifted = { (value: UInt32) in value + 100 }
        let cases: [((UInt32) -> UInt32, [UInt32])] = [(shifted, later.map { $0 == 0 ? 0 : $0 + 100 }), ({ $0 == 5 ? 0 : $0 }, later.map { $0 == 5 ? 0 : $0 })]
        for (transform, expected) in cases {
            var column = SparseColumn(head, defaultValue: 0)
            var other = SparseColumn(later, defaultValue: 0)
            column.append(movingRowsOf: &other, transform: { $0 == 0 ? 0 : transform($0) })
            #expect(column == head + expected)
            #expect(column.stored.memberCount == (head + expected).filter { $0 != 0 }.count)
            #expect(other.isEmpty)
        }
        // A later column with another default: its default rows are values here.
        var column = SparseColumn(head, defaultValue: 0)
        var other = SparseColumn(later, defaultValue: 3)
        column.append(movingRowsOf: &other)
        #expect(column == head + later)
        #expect(column.stored.memberCount == (head + later).filter { $0 != 0 }.count)
    }

    @Test func aColumnKnowsWhetherEveryRowHoldsOneValue() {
        #expect(SparseColumn(repeatElement(UInt16(0), count: 200), defaultValue: 0).isEvery(0))
        #expect(!SparseColumn(repeatElement(UInt16(0), count: 200), defaultValue: 0).isEvery(1))
        #expect(SparseColumn(repeatElement(UInt16(2), count: 200), defaultValue: 0).isEvery(2))
        #expect(!SparseColumn([UInt16](repeating: 2, count: 199) + [0], defaultValue: 0).isEvery(2))
        #expect(!SparseColumn([UInt16](repeating: 2, count: 199) + [3], defaultValue: 0).isEvery(2))
        #expect(!SparseColumn([UInt16](repeating: 0, count: 199) + [3], defaultValue: 0).isEvery(0))
        #expect(SparseColumn<UInt16>(defaultValue: 0).isEvery(5))
    }

    @Test func aBlockOfValuesAllKeptIsTakenOverByAnEmptyColumn() {
        var block = (1...130).map(Int64.init)
        let storage = block.withUnsafeBufferPointer { $0.baseAddress }
        var column = SparseColumn<Int64>(defaultValue: 0)
        column.append(movingContentsOf: &block)
        #expect(column == (1...130).map(Int64.init))
        // The very array became the stored values: nothing was copied.
        #expect(column.values.withUnsafeBufferPointer { $0.baseAddress } == storage)
        // A block with a default value in it is copied, leaving the default out.
        var sparse: [Int64] = [4, 0, 6]
        column.append(movingContentsOf: &sparse)
        #expect(column.values.count == 132 && column[130] == 4 && column[131] == 0 && column[132] == 6)
    }
}
