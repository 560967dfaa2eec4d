import DrainTrace
import Testing

@testable import DrainImport

/// The importer reads in fixed-size chunks; lines that cross chunk boundaries, however
/// they fall, must read the same.
@Suite("Drain trace streaming")
struct StreamingTests {
    static let lines = [
        #"{"drain_trace":1,"process":"Café ☕️","start":"2026-11-22T10:00:00Z"}"#,
        #"{"t":0.5,"type":"net","dir":"tx","bytes":512,"host":"bücher.example","iface":"wifi","conn":"c1"}"#,
        "",
        #"{"t":1.000000001,"type":"mark","name":"Größe 🔋 \u00e9\ud83d\ude00","dur":0.25}"#,
        #"{"t":2,"type":"disk","op":"write","bytes":4096,"path":"Library/Caches/ファイル.json","file_size":8192}"#,
        #"{"t":3,"type":"cpu","dur":0.001,"name":"x","thread":"main","extra":{"deep":[1,2,{"k":"v"}]}}"#,
    ]

    /// What every chunk size must give.
    static func expected() throws -> ImportedInput {
        try importTrace(lines)
    }

    @Test("every chunk size from 1 to 64 bytes reads the same timeline", arguments: Array(1...64))
    func chunkSizes(_ chunkSize: Int) throws {
        let reference = try Self.expected()
        let input = try importTrace(Self.lines, chunkSize: chunkSize)
        #expect(input.timeline.count == reference.timeline.count)
        for row in 0..<reference.timeline.count {
            var event = input.timeline[row]
            var expected = reference.timeline[row]
            // Compare strings, not ids, and everything else as it is.
            #expect(input.timeline.text(event.label) == reference.timeline.text(expected.label))
            #expect(input.timeline.text(event.label2) == reference.timeline.text(expected.label2))
            #expect(input.timeline.text(event.thread) == reference.timeline.text(expected.thread))
            event.label = 0
            event.label2 = 0
            event.thread = 0
            expected.label = 0
            expected.label2 = 0
            expected.thread = 0
            #expect(event == expected)
        }
        #expect(input.info == reference.info.with(path: input.info.path))
    }

    @Test("the reference reading is right, multi-byte characters and escapes included")
    func referenceContent() throws {
        let input = try Self.expected()
        let timeline = input.timeline
        #expect(input.info.process == "Café ☕️")
        #expect(timeline.text(timeline[0].label) == "bücher.example")
        #expect(timeline[1].time == 1_000_000_001)
        #expect(timeline.text(timeline[1].label) == "Größe 🔋 é😀")
        #expect(timeline.text(timeline[2].label) == "Library/Caches/ファイル.json")
        #expect(timeline.count == 4)
    }

    @Test("a multi-byte character split across two reads")
    func splitCharacter() throws {
        let head = Array((header + "\n").utf8)
        let line = Array(#"{"t":1,"type":"mark","name":"☕"}"#.utf8) + [0x0A]
        // ☕ is E2 98 95; put a chunk boundary after each of its bytes in turn.
        let coffee = line.firstIndex(of: 0xE2)!
        for split in 1...3 {
            let chunkSize = head.count + coffee + split
            let input = try importTrace(bytes: head + line, chunkSize: chunkSize)
            #expect(input.timeline.text(input.timeline[0].label) == "☕", "split after byte \(split)")
        }
    }

    @Test("lines much longer than the chunk grow the buffer")
    func longLines() throws {
        let name = String(repeating: "long name ", count: 5_000)
        let input = try importTrace([header, #"{"t":1,"type":"mark","name":""# + name + #""}"#, #"{"t":2,"type":"memory_warning"}"#], chunkSize: 7)
        #expect(input.timeline.text(input.timeline[0].label) == name)
        #expect(input.timeline.count == 2)
    }

    @Test("a large trace streams through many chunks with the real chunk size")
    func manyChunks() throws {
        var lines = [header]
        for index in 0..<50_000 {
            lines.append(#"{"t":"# + "\(index / 1000).\(String(format: "%03d", index % 1000))" + #","type":"net","dir":"rx","bytes":"# + "\(index)" + #","host":"h"# + "\(index % 7)" + #".example"}"#)
        }
        let input = try importTrace(lines)
        #expect(input.timeline.count == 50_000)
        #expect(input.timeline.amount.reduce(0, +) == Int64(49_999 * 50_000 / 2))
        #expect(input.timeline.time.last == 49_999_000_000)
        #expect(Set(input.timeline.label).count == 7)
        #expect(input.timeline.isSorted && input.info.diagnostics.isEmpty)
    }

    @Test("bytes in memory read like the same bytes in a file")
    func memoryInput() throws {
        let bytes = Array((Self.lines.joined(separator: "\n") + "\n").utf8)
        let fromMemory = try DrainTraceImporter.read(bytes: bytes, path: "memory.jsonl")
        let fromFile = try Self.expected()
        #expect(fromMemory.info.path == "memory.jsonl")
        #expect(fromMemory.timeline.time == fromFile.timeline.time)
        #expect(fromMemory.timeline.label.map(fromMemory.timeline.text) == fromFile.timeline.label.map(fromFile.timeline.text))
    }
}

extension InputInfo {
    func with(path: String) -> InputInfo {
        var copy = self
        copy.path = path
        return copy
    }
}
