import Foundation

/// The resident size, in KiB, of the first mapping of process `pid` (`self` for this one)
/// whose `/proc/PID/smaps` header line `matches` (address range, permissions, offset, device,
/// inode, path); nil when there is none, or the process is gone.
public func residentKiB(ofMappingIn pid: String = "self", where matches: (Substring) -> Bool) -> Int? {
    // Read to the end: the file's size says 0, and a read of that size stops short.
    guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return nil }
    defer { try? file.close() }
    let smaps = String(decoding: (try? file.readToEnd()) ?? Data(), as: UTF8.self)
    var inMapping = false
    for line in smaps.split(separator: "\n") {
        if let first = line.split(separator: " ").first, first.contains("-") {
            inMapping = matches(line)
        } else if inMapping, line.hasPrefix("Rss:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
    }
    return nil
}
