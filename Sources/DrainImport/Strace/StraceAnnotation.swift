/// What strace's `-y`/`-yy` annotation of a descriptor says it refers to: `3</var/db/x.db>`,
/// `1</dev/null<char 1:3>>`, `5<TCP:[10.0.0.2:5000->1.2.3.4:443]>`, `4<UNIX-STREAM:[1->2]>`,
/// `7<pipe:[123]>`, `9<anon_inode:[eventpoll]>`.
enum StraceAnnotation {
    /// A path (escaped as strace prints it); `device` when `-yy` marks it a character device.
    case path(Range<Int>, device: Bool)
    /// An internet socket, with the endpoints `-yy` knows (`local->remote`, or the local
    /// address of an unconnected socket, or neither when strace only knew the inode).
    case socket(StraceTransport, local: Range<Int>?, remote: Range<Int>?)
    /// Anything else: Unix and netlink sockets, pipes, anonymous inodes.
    case other

    /// Classifies the annotation whose text (without its outer `<` and `>`) is `content`.
    static func classify(_ bytes: UnsafeRawBufferPointer, _ content: Range<Int>) -> StraceAnnotation {
        guard let first = content.first.map({ bytes[$0] }) else { return .other }
        if first == ASCII.slash {
            var pathEnd = content.lowerBound
            while pathEnd < content.upperBound, bytes[pathEnd] != StraceSyntax.lessThan { pathEnd += 1 }
            let device = StraceSyntax.matches(bytes, at: pathEnd, end: content.upperBound, "<char ")
            return .path(content.lowerBound..<pathEnd, device: device)
        }
        let transport: StraceTransport
        if StraceSyntax.matches(bytes, at: content.lowerBound, end: content.upperBound, "TCP") {
            transport = .tcp
        } else if StraceSyntax.matches(bytes, at: content.lowerBound, end: content.upperBound, "UDP") {
            transport = .udp
        } else {
            return .other
        }
        guard let open = StraceSyntax.firstIndex(of: ":[", in: bytes, content) else { return .socket(transport, local: nil, remote: nil) }
        var close = content.upperBound
        while close > open, bytes[close - 1] != ASCII.closeBracket { close -= 1 }
        let inside = open + 2..<max(open + 2, close - 1)
        if let arrow = StraceSyntax.firstIndex(of: "->", in: bytes, inside) {
            return .socket(transport, local: inside.lowerBound..<arrow, remote: arrow + 2..<inside.upperBound)
        }
        // `TCP:[63066]`: only the socket's inode, no address yet.
        if inside.allSatisfy({ ASCII.isDigit(bytes[$0]) }) { return .socket(transport, local: nil, remote: nil) }
        return .socket(transport, local: inside, remote: nil)
    }

    /// The annotation right after a descriptor number at `start` (`3</path>`): the range of
    /// its content and the index after it; nil when none follows.
    static func following(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int) -> (content: Range<Int>, end: Int)? {
        guard start < end, bytes[start] == StraceSyntax.lessThan else { return nil }
        let annotationEnd = StraceSyntax.annotationEnd(bytes, from: start, to: end)
        guard annotationEnd > start + 1, bytes[annotationEnd - 1] == StraceSyntax.greaterThan else { return nil }
        return (start + 1..<annotationEnd - 1, annotationEnd)
    }
}
