import DrainReport

/// A report row the writer writes member by member, without `Encodable`'s containers: the
/// radio lane and the burst list hold up to 5,000 objects each, and through `Encodable` every
/// one of them cost a container box, generic metadata and conformance lookups, and a member
/// record kept for a sort it never needed — two thirds of rendering a long capture's report.
///
/// `memberKeys` lists every member the type's `Encodable` conformance writes, in key order,
/// and `writeMember` writes the value of one; the tests hold the bytes to Foundation's for
/// rows of every shape.
protocol JSONRow {
    /// The members' keys in key order (plain ASCII, needing no escape).
    static var memberKeys: [StaticString] { get }
    /// Writes the value of member `index` of `memberKeys`.
    func writeMember(_ index: Int, to output: JSONOutput) throws
}

extension BurstSummary: JSONRow {
    static let memberKeys: [StaticString] = [
        "bytes_down", "bytes_up", "end_s", "endpoint", "endpoints", "energy_j", "events", "link", "start_s",
    ]

    func writeMember(_ index: Int, to output: JSONOutput) throws {
        switch index {
        case 0: output.writeInteger(bytesDown)
        case 1: output.writeInteger(bytesUp)
        case 2: try output.writeDouble(endS)
        case 3: output.writeString(endpoint)
        case 4: output.writeInteger(endpoints)
        case 5: try output.writeDouble(energyJ)
        case 6: output.writeInteger(events)
        case 7: output.writeString(link)
        default: try output.writeDouble(startS)
        }
    }
}

extension RadioLaneSegment: JSONRow {
    static let memberKeys: [StaticString] = ["end_s", "link", "start_s", "state"]

    func writeMember(_ index: Int, to output: JSONOutput) throws {
        switch index {
        case 0: try output.writeDouble(endS)
        case 1: output.writeString(link)
        case 2: try output.writeDouble(startS)
        default: output.writeString(state)
        }
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

    /// The array at stack `level`, each row an object one level deeper, with the bytes the
    /// `Encodable` path writes: the separators, indentation and keys between the values are
    /// made once per array, and each row's are copied in one piece per member.
    private func writeRowArray<Row: JSONRow>(_ rows: [Row], level: Int) throws {
        _ = openContainer(isObject: false, level: level)
        if failed { throw SortedJSONWriter.Failure.unsupportedShape }
        let rowStart = lineStart(level: level + 1) + [UInt8(ascii: "{")]
        let rowSeparator = [UInt8(ascii: ",")] + rowStart
        let rowEnd = lineStart(level: level + 1) + [UInt8(ascii: "}")]
        let memberStarts = Row.memberKeys.enumerated().map { index, key in
            (index == 0 ? [] : [UInt8(ascii: ",")]) + lineStart(level: level + 2) + [UInt8(ascii: "\"")]
                + UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount) + [UInt8(ascii: "\"")] + nameSeparator
        }
        for (index, row) in rows.enumerated() {
            bytes.append(contentsOf: index == 0 ? rowStart : rowSeparator)
            for member in memberStarts.indices {
                bytes.append(contentsOf: memberStarts[member])
                try row.writeMember(member, to: self)
            }
            bytes.append(contentsOf: rowEnd)
        }
        countElements(rows.count, level: level)
        try close(above: level - 1)
    }
}
