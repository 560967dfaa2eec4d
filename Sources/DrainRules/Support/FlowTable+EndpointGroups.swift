import DrainTrace

extension FlowTable {
    /// `items` grouped by the endpoint of their flow (`flow(item)`), the groups in the order
    /// their endpoints first appear and the items of each in their given order: rules that judge
    /// connections make one finding per endpoint. O(n).
    func groupedByEndpoint<Item>(_ items: [Item], flow: (Item) -> Int) -> [[Item]] {
        var groups: [StringID: [Item]] = [:]
        var order: [StringID] = []
        for item in items {
            let endpoint = self.endpoint[flow(item)]
            if groups[endpoint] == nil { order.append(endpoint) }
            groups[endpoint, default: []].append(item)
        }
        return order.map { groups[$0] ?? [] }
    }
}
