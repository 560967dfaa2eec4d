import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// The real strace outputs of the shared corpus (recorded with strace 6.1, see its README).
/// Expected figures are counted from the files' text with regular expressions, independently
/// of the importer's parser.
@Suite struct StraceCorpusImportTests {
    static func corpusFile(_ name: String) -> URL {
        Corpus.root.appendingPathComponent("strace/\(name)")
    }

    static func lines(_ name: String) throws -> [Substring] {
        try String(contentsOf: corpusFile(name), encoding: .utf8).split(separator: "\n")
    }

    /// The sum of the results of the lines that finish a call of `name` (the whole call, or
    /// its `resumed` line) with a positive result.
    static func resultSum(of name: String, in lines: [Substring]) throws -> Int64 {
        let result = try Regex(#"\) = (\d+)( <[0-9.]+>)?$"#)
        var sum: Int64 = 0
        for line in lines where line.contains(" \(name)(") || line.contains("<... \(name) resumed>") {
            if let match = line.firstMatch(of: result), let value = Int64(match.output[1].substring ?? "") { sum += value }
        }
        return sum
    }

    static let summaryReason =
        "an `strace -c` summary holds totals per system call, not a timeline of calls; record with `strace -f -ttt -T -yy -o FILE`"

    @Test func everyCorpusFileImportsOrIsRefusedNamingIt() throws {
        let files = Corpus.files(in: "strace")
        #expect(files.count >= 7)
        var imported = 0
        for file in files {
            let name = file.lastPathComponent
            let path = file.path
            switch Result(catching: { () throws(ImportError) in try Importers.read(path: path, inputIndex: 0) }) {
            case let .success(input):
                imported += 1
                #expect(input.info.format == "strace", "\(name)")
                #expect(input.timeline.isSorted, "\(name)")
                #expect(input.info.events == input.timeline.count && input.timeline.count > 0, "\(name)")
                // Real strace output is understood line by line: nothing skipped as malformed.
                let codes = Set(input.info.diagnostics.entries.map(\.code))
                #expect(codes.isSubset(of: ["unmapped-syscall", "unknown-descriptor", "unfinished-call"]), "\(name): \(codes)")
            case let .failure(error):
                // Only the `strace -c` summary holds no timeline.
                #expect(name == "curl_get_summary.txt", "\(name): \(error)")
                #expect(error == .badData(path: path, location: "line 1, column 1", reason: Self.summaryReason))
                #expect(error.description.hasPrefix(path))
            }
        }
        #expect(imported == files.count - 1)
    }

    @Test func theHTTPServersPollLoopIsPolls() throws {
        let name = "http_server.strace"
        let input = try StraceImporter.read(path: Self.corpusFile(name).path)
        let lines = try Self.lines(name)
        // serve_forever(poll_interval=0.5) polls its listening socket, fd 3, every 500 ms.
        let timeouts = lines.filter { ($0.contains(" poll(") || $0.contains("<... poll resumed>")) && $0.contains(" = 0 (Timeout)") }
        let polls = input.events(.poll)
        #expect(polls.count == timeouts.count && polls.count >= 10)
        #expect(polls.allSatisfy { $0.label == "poll(3)" && $0.duration == ms(500) && $0.thread == "8062" })
        let ready = lines.filter { ($0.contains(" poll(") || $0.contains("<... poll resumed>")) && $0.contains(" = 1 (") }
        #expect(input.events(.wakeup).filter { $0.label == "io" }.count == ready.count)
        // The handler threads read requests and send responses on accepted sockets, which
        // they share with the main thread (clone3 with CLONE_FILES).
        let net = input.events(.net)
        #expect(net.filter { $0.code == NetDirection.tx.rawValue }.reduce(0) { $0 + $1.amount } == (try Self.resultSum(of: "sendto", in: lines)))
        #expect(net.filter { $0.code == NetDirection.rx.rawValue }.reduce(0) { $0 + $1.amount } == (try Self.resultSum(of: "recvfrom", in: lines)))
        #expect(net.allSatisfy { $0.label == "127.0.0.1" && $0.code2 == LinkKind.loopback.rawValue })
        #expect(net.allSatisfy { $0.label2.hasPrefix("tcp 127.0.0.1:8765 → 127.0.0.1:") })
        #expect(input.info.process == "python3")
        // The request log goes to standard error, which the trace never shows being opened.
        let unknown = try #require(input.diagnostic("unknown-descriptor"))
        #expect(unknown.count == lines.filter { $0.contains(" write(2, ") }.count)
        #expect(unknown.message.contains(#"descriptor "2""#))
    }

    @Test func theSleepLoopSleepsFiveTimes() throws {
        let name = "sleep_poll_loop.strace"
        let input = try StraceImporter.read(path: Self.corpusFile(name).path)
        let sleeps = try Self.lines(name).filter { $0.contains(" clock_nanosleep(") }
        let polls = input.events(.poll)
        #expect(polls.count == sleeps.count)
        #expect(polls.allSatisfy { $0.label == "sleep" && $0.duration == ms(200) })
        // One `sleep 0.2` process per turn of the loop, each about 0.2 s after the last.
        #expect(Set(polls.map(\.thread)).count == polls.count)
        for (earlier, later) in zip(polls, polls.dropFirst()) {
            #expect(later.time - earlier.time > ms(200) && later.time - earlier.time < ms(250))
        }
        // bash is told of each child's exit.
        #expect(input.events(.wakeup).map(\.label2) == Array(repeating: "SIGCHLD", count: sleeps.count))
        #expect(input.info.process == "bash")
    }

    @Test func curlWithAndWithoutYYSeesItsOneRequest() throws {
        for name in ["curl_get.strace", "curl_get_yy.strace"] {
            let input = try StraceImporter.read(path: Self.corpusFile(name).path)
            let lines = try Self.lines(name)
            let net = input.events(.net)
            #expect(net.map(\.code) == [NetDirection.tx.rawValue, NetDirection.rx.rawValue], "\(name)")
            #expect(net.map(\.amount) == [try Self.resultSum(of: "sendto", in: lines), try Self.resultSum(of: "recvfrom", in: lines)])
            #expect(net.allSatisfy { $0.label == "127.0.0.1" && $0.code2 == LinkKind.loopback.rawValue }, "\(name)")
            #expect(input.info.process == "curl")
        }
        let yy = try StraceImporter.read(path: Self.corpusFile("curl_get_yy.strace").path)
        #expect(yy.events(.net).map(\.label2) == Array(repeating: "tcp 127.0.0.1:54052 → 127.0.0.1:8765", count: 2))
        // -tt gives a time of day without a date; -ttt the wall clock of the first line.
        #expect(yy.info.wallClockStart == nil)
        let ttt = try StraceImporter.read(path: Self.corpusFile("curl_get.strace").path)
        #expect(ttt.info.wallClockStart == 1_795_311_592_347_824_000)
        // The last line is `+++ exited with 0 +++` at 1795311592.402438.
        #expect(ttt.timeline.end == us(402_438 - 347_824))
    }
}
