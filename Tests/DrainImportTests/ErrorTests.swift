import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Bad input: every error names the file, the line and the column (1-based, in bytes).
@Suite("Drain trace errors")
struct ErrorTests {
    /// Each line is the second of its trace, after a valid header; the column points at the
    /// byte where reading went wrong (for a missing field, the object's `{`).
    static let badLines: [(line: String, column: Int, reason: String)] =
        [
            (#"hello world"#, 1, #"expected '{' (each line of a Drain trace is one JSON object), found 'h'"#),
            (#"[1,2]"#, 1, #"expected '{' (each line of a Drain trace is one JSON object), found '['"#),
            (#"42"#, 1, #"expected '{' (each line of a Drain trace is one JSON object), found '4'"#),
            (#""just a string""#, 1, #"expected '{' (each line of a Drain trace is one JSON object), found '"'"#),
            (#"{"t":1 "type":"cpu"}"#, 8, #"expected ',' or '}' after a field value, found '"'"#),
            (#"{"t":1,"type":"cpu","dur":0.5}}"#, 31, #"unexpected '}' after the end of the object (a line holds one JSON object)"#),
            (#"{"t":1,,"type":"cpu"}"#, 8, #"expected '"' to start a field name, found ','"#),
            (#"{t:1}"#, 2, #"expected '"' to start a field name, found 't'"#),
            (#"{"t" 1}"#, 6, #"expected ':' after the field name, found '1'"#),
            (#"{"t":01,"type":"memory_warning"}"#, 6, #"invalid number: a number must not start with 0 followed by digits"#),
            (#"{"t":1.,"type":"memory_warning"}"#, 8, #"invalid number: expected a digit after '.'"#),
            (#"{"t":1e,"type":"memory_warning"}"#, 8, #"invalid number: expected a digit in the exponent"#),
            (#"{"t":-,"type":"memory_warning"}"#, 7, #"invalid number: expected a digit after '-'"#),
            (#"{"t":+1,"type":"memory_warning"}"#, 6, #"expected a value (a string, number, object, array, true, false or null), found '+'"#),
            (#"{"t":NaN,"type":"memory_warning"}"#, 6, #"expected a value (a string, number, object, array, true, false or null), found 'N'"#),
            (#"{"t":1,"type":"cp\x"}"#, 18, #"invalid escape inside a string: '\' followed by 'x'"#),
            (#"{"t":1,"type":"\u12G4"}"#, 20, #"invalid \u escape: expected 4 hexadecimal digits"#),
            (#"{"t":1,"type":"a"# + "\t" + #"b"}"#, 17, #"control character byte 0x09 inside a string must be escaped"#),
            (#"{"t":1,"type":nul}"#, 15, #"expected a value (a string, number, object, array, true, false or null)"#),
            (#"{"t":1,"type":"x","a":[1 2]}"#, 26, #"expected ',' or ']' after an array element, found '2'"#),
            (#"{"t":1,"type":"x","a":{"b" 1}}"#, 28, #"expected ':' after the field name, found '1'"#),
            (#"{"t":1,"type":"x"} {"t":2}"#, 20, #"unexpected '{' after the end of the object (a line holds one JSON object)"#),
            (#"{"t":1,"# + "\u{0}" + #""type":"x"}"#, 8, #"expected '"' to start a field name, found byte 0x00"#),
            (#"{"type":"cpu","dur":1}"#, 1, #"missing "t" (every event needs "t" and "type")"#),
            (#"{"t":1,"dur":1}"#, 1, #"missing "type" (every event needs "t" and "type")"#),
            (#"{"t":"1","type":"cpu","dur":1}"#, 6, #""t" must be a number, found a string"#),
            (#"{"t":1,"type":7}"#, 15, #""type" must be a string, found a number"#),
            (#"{"t":[],"type":"cpu"}"#, 6, #""t" must be a number, found an array"#),
            (#"{"t":1,"type":"frame","changed":1}"#, 33, #""changed" must be true or false, found a number"#),
            (#"{"t":1,"type":"idle_timer","disabled":"yes"}"#, 39, #""disabled" must be true or false, found a string"#),
            (#"{"t":1,"type":"timer","interval":1,"repeats":null,"tolerance":{}}"#, 63, #""tolerance" must be a number, found an object"#),
            (#"{"t":1,"type":"net","dir":"tx","bytes":"10"}"#, 40, #""bytes" must be a number, found a string"#),
            (#"{"t":1,"type":"net","dir":"tx","bytes":10,"host":false}"#, 50, #""host" must be a string, found false"#),
            (#"{"t":1,"type":"cpu","dur":0.1,"thread":1.5}"#, 40, #""thread" must be a string or a whole number ≥ 0, found a number"#),
            (#"{"t":1,"type":"cpu","dur":0.1,"thread":-3}"#, 40, #""thread" must be a string or a whole number ≥ 0, found a number"#),
            (#"{"t":1,"type":"cpu","dur":0.1,"thread":true}"#, 40, #""thread" must be a string or a whole number ≥ 0, found true"#),
            (#"{"t":1,"type":"net","dir":"tx","bytes":10,"conn":7.5}"#, 50, #""conn" must be a string or a whole number ≥ 0, found a number"#),
            (#"{"t":1,"type":"background_task","action":"begin","id":[1]}"#, 55, #""id" must be a string or a whole number ≥ 0, found an array"#),
            (#"{"t":1,"type":"net","dir":"up","bytes":1}"#, 27, #""dir" must be one of tx, rx; found "up""#),
            (#"{"t":1,"type":"net","dir":"tx","bytes":1,"iface":"5g"}"#, 50, #""iface" must be one of wifi, cellular, ethernet, loopback; found "5g""#),
            (#"{"t":1,"type":"lifecycle","state":"Active"}"#, 35, #""state" must be one of not_running, inactive, active, background, suspended; found "Active""#),
            (#"{"t":1,"type":"resource","kind":"camera","action":"start"}"#, 51, #""action" must be one of acquire, release; found "start""#),
            (#"{"t":1,"type":"background_task","action":"stop"}"#, 42, #""action" must be one of begin, end, expire; found "stop""#),
            (#"{"t":1,"type":"sensor","kind":"gyro","action":"acquire"}"#, 47, #""action" must be one of start, stop; found "acquire""#),
            (#"{"t":1,"type":"location","action":"begin"}"#, 35, #""action" must be one of start, stop; found "begin""#),
            (#"{"t":1,"type":"disk","op":"delete"}"#, 27, #""op" must be one of write, fsync, read, truncate; found "delete""#),
            (#"{"t":-1,"type":"memory_warning"}"#, 6, #""t" must not be negative"#),
            (#"{"t":-0.5e-20,"type":"memory_warning"}"#, 6, #""t" must not be negative"#),
            (#"{"t":1,"type":"net","dir":"tx","bytes":-5}"#, 40, #""bytes" must not be negative"#),
            (#"{"t":1,"type":"cpu","dur":-0.5}"#, 27, #""dur" must not be negative"#),
            (#"{"t":1,"type":"gpu","dur":-1}"#, 27, #""dur" must not be negative"#),
            (#"{"t":1,"type":"mark","name":"m","dur":-1}"#, 39, #""dur" must not be negative"#),
            (#"{"t":1,"type":"timer","interval":-1}"#, 34, #""interval" must not be negative"#),
            (#"{"t":1,"type":"poll","interval":-0.1}"#, 33, #""interval" must not be negative"#),
            (#"{"t":1,"type":"timer","interval":1,"tolerance":-0.1}"#, 48, #""tolerance" must not be negative"#),
            (#"{"t":1,"type":"sensor","kind":"gyro","action":"start","rate_hz":-60}"#, 65, #""rate_hz" must not be negative"#),
            (#"{"t":1,"type":"disk","op":"write","file_size":-1}"#, 47, #""file_size" must not be negative"#),
            (#"{"t":1,"type":"memory","footprint":-1}"#, 36, #""footprint" must not be negative"#),
            (#"{"t":1,"type":"lifecycle"}"#, 1, #"a "lifecycle" event needs "state""#),
            (#"{"t":1,"type":"cpu"}"#, 1, #"a "cpu" event needs "dur""#),
            (#"{"t":1,"type":"gpu","name":"x"}"#, 1, #"a "gpu" event needs "dur""#),
            (#"{"t":1,"type":"timer","name":"x"}"#, 1, #"a "timer" event needs "interval""#),
            (#"{"t":1,"type":"poll","source":"x"}"#, 1, #"a "poll" event needs "interval""#),
            (#"{"t":1,"type":"net","bytes":1}"#, 1, #"a "net" event needs "dir""#),
            (#"{"t":1,"type":"net","dir":"tx"}"#, 1, #"a "net" event needs "bytes""#),
            (#"{"t":1,"type":"disk","bytes":1}"#, 1, #"a "disk" event needs "op""#),
            (#"{"t":1,"type":"memory"}"#, 1, #"a "memory" event needs "footprint""#),
            (#"{"t":1,"type":"resource","action":"acquire"}"#, 1, #"a "resource" event needs "kind""#),
            (#"{"t":1,"type":"resource","kind":"camera"}"#, 1, #"a "resource" event needs "action""#),
            (#"{"t":1,"type":"background_task","id":"x"}"#, 1, #"a "background_task" event needs "action""#),
            (#"{"t":1,"type":"frame"}"#, 1, #"a "frame" event needs "changed""#),
            (#"{"t":1,"type":"sensor","action":"start"}"#, 1, #"a "sensor" event needs "kind""#),
            (#"{"t":1,"type":"sensor","kind":"gyro"}"#, 1, #"a "sensor" event needs "action""#),
            (#"{"t":1,"type":"location"}"#, 1, #"a "location" event needs "action""#),
            (#"{"t":1,"type":"idle_timer"}"#, 1, #"a "idle_timer" event needs "disabled""#),
            (#"{"t":1,"type":"mark","dur":1}"#, 1, #"a "mark" event needs "name""#),
            (#"{"t":1,"type":"net","dir":"tx","bytes":null}"#, 1, #"a "net" event needs "bytes""#),
        ]

    @Test("malformed lines, wrong types, bad enum values, negative numbers, missing fields", arguments: badLines)
    func badLine(_ line: String, _ column: Int, _ reason: String) throws {
        let failure = try badData([header, line])
        #expect(failure?.location == "line 2, column \(column)")
        #expect(failure?.reason == reason)
    }

    @Test("line numbers count blank lines and the header")
    func lineNumbers() throws {
        let failure = try badData([header, "", #"{"t":0,"type":"memory_warning"}"#, "   ", #"{"t":1,"type":"cpu","dur":0.5,}"#])
        #expect(failure?.location == "line 5, column 31")
        #expect(failure?.reason == "expected '\"' to start a field name, found '}'")
    }

    @Test("columns count bytes, not characters")
    func byteColumns() throws {
        // "é" is two bytes and "🔋" four: the bad value is the 40th character but the 44th byte.
        let failure = try badData([header, #"{"t":1,"type":"mark","name":"é🔋","dur":x}"#])
        #expect(failure?.location == "line 2, column 44")
    }

    @Test("nesting deeper than 512 levels is refused, not a stack overflow")
    func deepNesting() throws {
        let line = #"{"t":1,"type":"x","a":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        let failure = try badData([header, line])
        // The 512th bracket is allowed; the 513th, at byte 22 + 513, is not.
        #expect(failure?.location == "line 2, column \(22 + 513)")
        #expect(failure?.reason == "objects and arrays are nested more than 512 deep")
        let deepButAllowed = #"{"t":1,"type":"x","a":"# + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}"
        #expect(try importTrace([header, deepButAllowed]).timeline.count == 1)
    }

    @Test("an empty file")
    func emptyFile() throws {
        let failure = try importFailure("")
        #expect(failure?.error == .badData(path: failure?.path ?? "", location: nil, reason: "empty file, expected a drain_trace header"))
    }

    @Test("a file of blank lines")
    func blankFile() throws {
        let failure = try importFailure("\n  \n\t\r\n")
        #expect(failure?.error == .badData(path: failure?.path ?? "", location: nil, reason: "the file holds only blank lines, expected a drain_trace header"))
    }

    @Test("a missing file is unreadable")
    func missingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nope.jsonl").path
        #expect(throws: ImportError.unreadable(path: path, reason: "No such file or directory")) {
            try DrainTraceImporter.read(path: path)
        }
    }

    @Test("a directory is unreadable")
    func directory() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ImportError.unreadable(path: directory.path, reason: "is a directory")) {
            try DrainTraceImporter.read(path: directory.path)
        }
    }

    @Test("error descriptions name the file and the place")
    func description() {
        let error = ImportError.badData(path: "run.jsonl", location: "line 2, column 5", reason: "\"t\" must not be negative")
        #expect(error.description == #"run.jsonl: line 2, column 5: "t" must not be negative"#)
    }
}
