import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 (never another interface) that stands in for the
/// sync engine's remote API: `GET /notes?page=N` answers with N KiB-sized pages of JSON
/// and closes the connection.
///
/// It answers one connection at a time on a thread of its own; it is not traced (it plays
/// the remote side).
final class LoopbackServer: Sendable {
    /// The port it listens on, chosen by the system.
    let port: UInt16
    private let listener: Int32
    private let stopped = DispatchSemaphore(value: 0)

    init() throws(SystemCallError) {
        let listener: Int32
        switch Socket.tcp() {
        case .success(let descriptor): listener = descriptor
        case .failure(let error): throw error
        }
        var address = Socket.loopbackAddress(port: 0)
        let bound = Socket.withSocketAddress(&address) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 8) == 0 else {
            let error = SystemCallError(call: "bind", code: errno)
            close(listener)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else {
            let error = SystemCallError(call: "getsockname", code: errno)
            close(listener)
            throw error
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        DispatchQueue(label: "loopback-server").async { [self] in serve() }
    }

    /// Stops accepting connections and waits for the serving thread to finish.
    func stop() {
        // Wakes the blocked `accept` with an error, which ends the loop.
        shutdown(listener, Int32(SHUT_RDWR))
        stopped.wait()
        close(listener)
    }

    private func serve() {
        defer { stopped.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        let endOfHeaders: [UInt8] = Array("\r\n\r\n".utf8)
        guard case .success(let request) = Socket.receive(connection, until: { $0.ends(with: endOfHeaders) }) else { return }
        let requestLine = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let pages = requestLine.split(separator: "=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 1
        let body = Array(Self.page(count: max(1, min(pages, 64))).utf8)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        _ = Socket.sendAll(connection, Array(head.utf8) + body)
    }

    /// About `count` KiB of notes as JSON.
    private static func page(count: Int) -> String {
        let note = #"{"id":"00000000","title":"Groceries","body":"eggs, flour, coffee, oranges, rice, lentils, cheese, bread, tea, apples, butter"},"#
        let notesPerKiB = 1024 / note.utf8.count + 1
        return "[" + String(repeating: note, count: notesPerKiB * count).dropLast() + "]"
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
