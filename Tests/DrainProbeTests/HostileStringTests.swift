import DrainImport
import DrainProbe
import DrainTrace
import Testing

/// Strings come from the app (host names, paths, user-visible names): whatever they hold,
/// the probe writes valid JSON and the importer reads back exactly the same string.
@Suite("DrainProbe hostile strings")
struct HostileStringTests {
    /// A string and a short name for it in test results.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String

        var testDescription: String { name }
    }

    static let strings: [Hostile] = [
        Hostile(name: "quote", text: #"quote " inside"#),
        Hostile(name: "backslashes", text: #"back\slash \" and \\"#),
        Hostile(name: "newline, return, tab", text: "new\nline, return\r, tab\t"),
        Hostile(name: "script tags", text: "</script><script>alert(1)</script>"),
        Hostile(name: "NUL and other controls", text: "nul \u{0} bell \u{7} unit separator \u{1F} delete \u{7F}"),
        Hostile(name: "non-ASCII", text: "emoji 😀, é, 中文, 𝄞"),
        Hostile(name: "line separators", text: "line separators \u{2028}\u{2029}"),
        Hostile(name: "JSON", text: #"{"t":0,"type":"net"}"#),
        Hostile(name: "empty", text: ""),
        // Over 1 KiB once escaped: formatted off the stack.
        Hostile(name: "1.2 KiB of escapes", text: String(repeating: "\"\\\n\u{1}", count: 300)),
        // Longer than the 4 KiB buffer used below: written past it.
        Hostile(name: "15 KiB", text: String(repeating: "é\"", count: 5000)),
    ]

    @Test("every string field keeps its exact text", arguments: strings)
    func exact(_ hostile: Hostile) throws {
        let name = hostile.text
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe(process: name, device: name, bufferCapacity: 4096)
        probe.net(.tx, bytes: 1, host: name, connection: name)
        probe.disk(.write, bytes: 1, path: name)
        probe.wakeup(reason: name, source: name)
        probe.timer(name, interval: .seconds(1))
        probe.poll(name, interval: .seconds(1))
        probe.resource(name, .acquire, id: name)
        probe.backgroundTask(.begin, id: name)
        probe.sensor(name, .start)
        probe.mark(name)
        probe.measure(name) {}
        probe.gpu(name, since: probe.now())
        probe.close()

        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty)
        #expect(input.info.process == name)
        #expect(input.info.deviceHint == name)
        let timeline = input.timeline
        #expect(timeline.count == 11)
        var labels: [String] = []
        for index in 0..<timeline.count {
            switch timeline.kind[index] {
            case .net, .wakeup, .resource:
                labels += [input.text(timeline.label[index]), input.text(timeline.label2[index])]
            case .backgroundTask:
                labels.append(input.text(timeline.label2[index]))
            default:
                labels.append(input.text(timeline.label[index]))
            }
        }
        #expect(labels.count == 14)
        for (index, label) in labels.enumerated() { #expect(label == name, "string \(index)") }
    }

    @Test("no raw control character reaches the file, so every event stays on its line")
    func oneLinePerEvent() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        for hostile in Self.strings { probe.mark(hostile.text) }
        probe.close()
        let lines = try fixture.lines()
        #expect(lines.count == 1 + Self.strings.count)
        for line in lines { #expect(!line.unicodeScalars.contains { $0.value < 0x20 }) }
    }
}
