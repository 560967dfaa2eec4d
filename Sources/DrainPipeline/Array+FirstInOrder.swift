extension Array {
    /// The first `count` elements in the order `areInIncreasingOrder` gives, sorted: the
    /// prefix a full sort would give, when that order is a strict total order (no two elements
    /// equivalent). They are found by partitioning around pivots drawn at random, keeping only
    /// the side that holds the `count`th (quickselect), and only they are sorted: expected
    /// O(n + count log count) comparisons, where sorting all takes O(n log n). Equivalent
    /// elements are grouped apart at each step, so many equal ones cost no more. (Not
    /// swift-algorithms' `min(count:sortedBy:)`: it inserts into a sorted buffer of `count`,
    /// O(n · count) on an input that comes in ascending order, such as hosts each costlier
    /// than the one before.)
    func firstInOrder(_ count: Int, by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        guard count < self.count else { return sorted(by: areInIncreasingOrder) }
        guard count > 0 else { return [] }
        var items = self
        var generator = SystemRandomNumberGenerator()
        // Invariant: every element before `low` precedes or equals every one in low..<high,
        // which precede or equal every one from `high` on; the `count`th lies in low..<high.
        var low = 0
        var high = items.count
        while high - low > 1 {
            let pivot = items[Int.random(in: low..<high, using: &generator)]
            // Three ways: [low, less) before the pivot, [less, next) equivalent to it,
            // [greater, high) after it.
            var less = low
            var next = low
            var greater = high
            while next < greater {
                if areInIncreasingOrder(items[next], pivot) {
                    items.swapAt(less, next)
                    less += 1
                    next += 1
                } else if areInIncreasingOrder(pivot, items[next]) {
                    greater -= 1
                    items.swapAt(next, greater)
                } else {
                    next += 1
                }
            }
            if count <= less {
                high = less
            } else if count <= greater {
                break
            } else {
                low = greater
            }
        }
        return Array(items[..<count]).sorted(by: areInIncreasingOrder)
    }
}
