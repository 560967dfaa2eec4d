import DrainReport

/// A report row the writer writes member by member, without `Encodable`'s containers: the
/// radio lane and the burst list hold up to 5,000 objects each, and through `Encodable` every
/// one of them cost a container box, generic metadata and conformance lookups, and a member
/// record kept for a sort it never needed — two thirds of rendering a long capture's report.
///
/// `writeMembers` writes every member the type's `Encodable` conformance writes, in key
/// order, with ``JSONOutput/beginMember(level:key:)``; the tests hold the bytes to
/// Foundation's for rows of every shape.
protocol JSONRow {
    func writeMembers(to output: JSONOutput, level: Int) throws
}

extension BurstSummary: JSONRow {
    func writeMembers(to output: JSONOutput, level: Int) throws {
        output.beginMember(level: level, key: "bytes_down")
        output.writeInteger(bytesDown)
        output.beginMember(level: level, key: "bytes_up")
        output.writeInteger(bytesUp)
        output.beginMember(level: level, key: "end_s")
        try output.writeDouble(endS)
        output.beginMember(level: level, key: "endpoint")
        output.writeString(endpoint)
        output.beginMember(level: level, key: "endpoints")
        output.writeInteger(endpoints)
        output.beginMember(level: level, key: "energy_j")
        try output.writeDouble(energyJ)
        output.beginMember(level: level, key: "events")
        output.writeInteger(events)
        output.beginMember(level: level, key: "link")
        output.writeString(link)
        output.beginMember(level: level, key: "start_s")
        try output.writeDouble(startS)
    }
}

extension RadioLaneSegment: JSONRow {
    func writeMembers(to output: JSONOutput, level: Int) throws {
        output.beginMember(level: level, key: "end_s")
        try output.writeDouble(endS)
        output.beginMember(level: level, key: "link")
        output.writeString(link)
        output.beginMember(level: level, key: "start_s")
        try output.writeDouble(startS)
        output.beginMember(level: level, key: "state")
        output.writeString(state)
    }
}

extension JSONOutput {
    /// Writes `value` as an array of rows if it is one of the row arrays, and says whether it
    /// did. Metatype identity, as for scalars: a cast would be a run-time call per value.
    func writeRows<T>(_ value: T, level: Int) throws -> Bool {
        if T.self == [BurstSummary].self {
            try writeRowArray(unsafeBitCast(value, to: [BurstSummary].self), level: level)
        } else if T.self == [RadioLaneSegment].self {
            try writeRowArray(unsafeBitCast(value, to: [RadioLaneSegment].self), level: level)
        } else {
            return false
        }
        return true
    }

    /// The array at stack `level` and each row an object one level deeper: the containers,
    /// separators and indentation of the `Encodable` path, which opens and closes them alike.
    private func writeRowArray<Row: JSONRow>(_ rows: [Row], level: Int) throws {
        _ = openContainer(isObject: false, level: level)
        if failed { throw SortedJSONWriter.Failure.unsupportedShape }
        for row in rows {
            try beginElement(level: level, key: nil)
            _ = openContainer(isObject: true, level: level + 1)
            try row.writeMembers(to: self, level: level + 1)
            try close(above: level)
        }
        try close(above: level - 1)
    }

    /// Starts member `key` of the object at stack `level`, written in key order by its
    /// caller: separator, indentation and the key, which is plain ASCII needing no escape.
    func beginMember(level: Int, key: StaticString) {
        separate(level: level)
        startLine(level: level)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        writeNameSeparator()
    }
}
