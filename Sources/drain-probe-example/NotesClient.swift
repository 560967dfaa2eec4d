import DrainProbe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fetches pages of notes from the loopback server over a fresh connection per request,
/// recording the bytes each way as `net` events.
///
/// The events leave `iface` out: the loopback server stands in for a remote API, so
/// pricing uses the device model's default link, as it would for the app on a phone.
struct NotesClient: Sendable {
    let port: UInt16
    let probe: DrainProbe
    static let host = "127.0.0.1"

    /// `GET /notes?page=PAGES`; the response body.
    func fetch(pages: Int, connection: String) throws(SystemCallError) -> [UInt8] {
        let descriptor: Int32
        switch Socket.tcp() {
        case .success(let socket): descriptor = socket
        case .failure(let error): throw error
        }
        defer { close(descriptor) }
        var address = Socket.loopbackAddress(port: port)
        guard Socket.withSocketAddress(&address, { connect(descriptor, $0, $1) }) == 0 else {
            throw SystemCallError(call: "connect", code: errno)
        }
        let request = "GET /notes?page=\(pages) HTTP/1.1\r\nHost: \(Self.host):\(port)\r\nConnection: close\r\n\r\n"
        switch Socket.sendAll(descriptor, Array(request.utf8)) {
        case .success(let sent): probe.net(.tx, bytes: sent, host: Self.host, connection: connection)
        case .failure(let error): throw error
        }
        let response: [UInt8]
        switch Socket.receive(descriptor) {
        case .success(let bytes): response = bytes
        case .failure(let error): throw error
        }
        probe.net(.rx, bytes: response.count, host: Self.host, connection: connection)
        return Self.body(of: response)
    }

    /// What follows the blank line after the headers.
    private static func body(of response: [UInt8]) -> [UInt8] {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard response.count >= separator.count else { return [] }
        for start in 0...(response.count - separator.count) where response[start..<(start + separator.count)].elementsEqual(separator) {
            return Array(response[(start + separator.count)...])
        }
        return []
    }
}
