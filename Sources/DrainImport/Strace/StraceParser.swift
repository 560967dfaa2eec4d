import DrainTrace

/// Reads the lines of one strace output into a `Timeline`, line by line, keeping only what
/// later lines need: calls waiting for their `resumed` line and the descriptor tables of the
/// traced processes (see `docs/strace.md`).
///
/// Every line is read in place; nothing is allocated per line once the reusable buffers and
/// tables have grown, besides the timeline's own growth and interning new strings.
struct StraceParser {
    let path: String
    let inputIndex: UInt16
    var timeline = Timeline()
    var diagnostics = ImportDiagnostics()
    var clock = StraceClock()
    var unfinished = StraceUnfinishedCalls()
    var descriptors = StraceDescriptorTables()
    var unmapped = StraceUnmappedCalls()
    /// The name of the program the first successful `execve` ran.
    var process: String?

    /// The arguments of the call being read, split at top-level commas.
    var arguments: [Range<Int>] = []
    /// An unfinished call's start joined with its resumption.
    var joined: [UInt8] = []
    /// Decoded strings and labels being built, before interning.
    var scratch: [UInt8] = []
    /// Descriptors already named in the current wait's label.
    var labelledDescriptors: [Int32] = []
    /// Interned thread names (the pid's digits), by pid.
    private var threadNames: [Int32: StringID] = [:]
    /// The pid that `[pid N]` lines give the process whose first lines had no pid (strace
    /// without `-o` adds prefixes only once a second process is traced).
    private var rootAlias: Int32?

    var malformed = DiagnosticTally(code: "malformed-line")
    var unmatched = DiagnosticTally(code: "unmatched-resumed")
    var unknownDescriptors = DiagnosticTally(code: "unknown-descriptor")
    private var recognisedLines = 0
    private var callLines = 0
    private var sawContent = false
    /// Whether the `strace -C` summary table at the end of the trace has begun.
    private var inSummary = false
    private var wholeSeconds = false
    /// The time of the latest line and of the latest event, for the run's end.
    private var lastTime: Nanoseconds = 0

    init(path: String, inputIndex: UInt16) {
        self.path = path
        self.inputIndex = inputIndex
    }

    /// Reads one line.
    ///
    /// - Throws: `ImportError.badData` when the first line is not strace output, is an
    ///   `strace -c` summary, or has no timestamp. Later bad lines are skipped and counted.
    mutating func consume(_ line: Line) throws(ImportError) {
        let bytes = line.bytes
        var end = bytes.count
        while end > 0, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab || bytes[end - 1] == ASCII.carriageReturn {
            end -= 1
        }
        var start = 0
        if line.number == 1, end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        guard start < end else { return }
        guard line.isTerminated else {
            // strace ends every line it writes; a last line without a newline was cut off.
            diagnostics.record(
                .warning, code: "truncated",
                message: "the last line (line \(line.number)) is cut off (no newline at its end) and was dropped",
                location: "line \(line.number), column \(end + 1)")
            return
        }
        // Lines are kept with the readable padding after them: packed names may read past `end`.
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard !inSummary else { return }
        if StraceSyntax.matches(text, at: 0, end: text.count, "% time") {
            guard sawContent else {
                throw .badData(
                    path: path, location: "line \(line.number), column \(start + 1)",
                    reason: "an `strace -c` summary holds totals per system call, not a timeline of calls; record with `strace -f -ttt -T -yy -o FILE`")
            }
            // `strace -C` ends the trace with the summary table: nothing after it is a call.
            inSummary = true
            return
        }
        sawContent = true
        if StraceSyntax.matches(text, at: 0, end: text.count, "strace: ") || StraceSyntax.matches(text, at: 0, end: text.count, "> ") {
            // strace's own messages (`strace: Process 42 attached`) when its stderr was kept,
            // and the stack frames `-k` prints under a call (` > /usr/lib/libc.so.6(write+0x14)`).
            recognisedLines += 1
            return
        }
        let parsed: StraceLine
        do {
            parsed = try StraceLine.parse(text)
        } catch {
            return try reject(error, line: line.number, offset: start)
        }
        guard let stamp = parsed.timestamp else {
            guard clock.mode != nil else {
                throw .badData(
                    path: path, location: LineError.location(line: line.number, offset: start + parsed.bodyStart),
                    reason: "the line has no timestamp; Drain needs strace's times to place calls in time: record with `strace -f -ttt -T -yy -o FILE` (or -tt)")
            }
            return try reject(
                LineError(at: parsed.bodyStart, "the line has no timestamp, unlike the lines before it"), line: line.number,
                offset: start)
        }
        guard let time = clock.place(stamp) else {
            return try reject(
                LineError(at: 0, "the timestamp is not in the style of the first line's"), line: line.number, offset: start)
        }
        if stamp.wholeSeconds { wholeSeconds = true }
        lastTime = max(lastTime, time)
        do {
            try read(parsed, text: text, time: max(0, time), lineNumber: line.number, lineOffset: start)
            recognisedLines += 1
        } catch {
            try reject(error, line: line.number, offset: start)
        }
    }

    /// Skips a line that is not strace output, or refuses the file when it is the first.
    private mutating func reject(_ error: LineError, line: Int, offset: Int) throws(ImportError) {
        let location = LineError.location(line: line, offset: offset + error.offset)
        guard recognisedLines > 0 else {
            throw .badData(path: path, location: location, reason: "not strace output: \(error.message)")
        }
        if malformed.count == 0 {
            malformed.first(message: "line \(line) is not a strace line (\(error.message)); it was skipped", location: location)
        }
        malformed.count += 1
    }

    /// Reads one line's event; `lineOffset` is where `text` starts in the line.
    private mutating func read(
        _ line: StraceLine, text: UnsafeRawBufferPointer, time: Nanoseconds, lineNumber: Int, lineOffset: Int
    ) throws(LineError) {
        let pid = canonical(line.pid)
        switch line.body {
        case .exit:
            unfinished.drop(pid: pid)
            descriptors.exited(pid: pid)
        case .detached:
            break
        case let .signal(name):
            guard let name else { return }
            let reason = timeline.strings.intern("signal")
            let source = timeline.strings.intern(UnsafeRawBufferPointer(rebasing: text[name]))
            append(Event(time: time, kind: .wakeup, thread: thread(line.pid), label: reason, label2: source))
        case let .call(nameEnd, unfinishedAt):
            callLines += 1
            let name = UnsafeRawBufferPointer(rebasing: text[line.bodyStart..<nameEnd])
            let syscall = StraceSyscall.named(name)
            if syscall == nil { unmapped.count(name) }
            if let unfinishedAt {
                unfinished.start(
                    pid: pid, syscall: syscall, text: UnsafeRawBufferPointer(rebasing: text[line.bodyStart..<unfinishedAt]),
                    entry: time, line: lineNumber)
                return
            }
            let call = UnsafeRawBufferPointer(rebasing: text[line.bodyStart...])
            let layout: StraceCall.Layout
            do {
                layout = try StraceCall.layout(call, nameEnd: nameEnd - line.bodyStart)
            } catch {
                throw LineError(at: line.bodyStart + error.offset, error.message, cutOff: error.isCutOff)
            }
            guard let syscall else { return }
            complete(syscall, pid: line.pid, text: call, nameEnd: nameEnd - line.bodyStart, layout: layout, entry: time, resumedAt: nil, line: lineNumber)
        case let .resumed(nameRange, restStart):
            callLines += 1
            let name = UnsafeRawBufferPointer(rebasing: text[nameRange])
            var owner = pid
            if !unfinished.isWaiting(pid: owner, name: name), line.pid != 0, rootAlias == nil,
                unfinished.isWaiting(pid: 0, name: name)
            {
                // The first `[pid N]` line of the process that was traced alone until now.
                rootAlias = line.pid
                owner = 0
            }
            let rest = UnsafeRawBufferPointer(rebasing: text[restStart...])
            // strace resumes the call it left unfinished, by name; another call's start is stale.
            let waiting = unfinished.isWaiting(pid: owner, name: name)
            if !waiting { unfinished.drop(pid: owner) }
            guard waiting, let started = unfinished.finish(pid: owner, rest: rest, into: &joined) else {
                if unmatched.count == 0 {
                    unmatched.first(
                        message: "line \(lineNumber) resumes a call that no earlier line started (the trace began during it, or lines were lost); it was skipped",
                        location: LineError.location(line: lineNumber, offset: lineOffset + nameRange.lowerBound))
                }
                unmatched.count += 1
                return
            }
            let combined = joined
            let failure = combined.withUnsafeBytes { call -> LineError? in
                if let marker = StraceSyntax.firstIndex(of: "<unfinished ...>", in: call, 0..<call.count) {
                    // Resumed and interrupted again: wait for the next resumption.
                    let head = StraceSyntax.trimmed(call, 0..<marker)
                    unfinished.start(
                        pid: owner, syscall: started.syscall, text: UnsafeRawBufferPointer(rebasing: call[head]),
                        entry: started.entry, line: started.line)
                    return nil
                }
                let layout: StraceCall.Layout
                do throws(LineError) {
                    layout = try StraceCall.layout(call, nameEnd: name.count)
                } catch {
                    // The joined text's offsets are not the line's: point at the resumed part.
                    return LineError(at: restStart, error.message, cutOff: error.isCutOff)
                }
                if let syscall = started.syscall {
                    complete(syscall, pid: line.pid, text: call, nameEnd: name.count, layout: layout, entry: started.entry, resumedAt: time, line: lineNumber)
                }
                return nil
            }
            if let failure { throw failure }
        }
    }

    /// Turns a call read in full into events and descriptor updates.
    private mutating func complete(
        _ syscall: StraceSyscall, pid: Int32, text: UnsafeRawBufferPointer, nameEnd: Int, layout: StraceCall.Layout,
        entry: Nanoseconds, resumedAt: Nanoseconds?, line: Int
    ) {
        let returned = layout.duration.map { entry + $0 } ?? resumedAt ?? entry
        let call = StraceCall(
            syscall: syscall, pid: pid, text: text, arguments: layout.arguments, result: layout.result,
            resultAnnotation: layout.resultAnnotation, errorName: layout.errorName, entry: entry,
            returned: returned, line: line)
        apply(call, name: 0..<nameEnd)
    }

    /// The key of a process's state: the process traced alone before `[pid N]` prefixes
    /// began is 0 under either name.
    private func canonical(_ pid: Int32) -> Int32 {
        pid == rootAlias ? 0 : pid
    }

    /// The interned name of a thread: its pid's digits; none for lines without a pid.
    mutating func thread(_ pid: Int32) -> StringID {
        guard pid != 0 else { return 0 }
        if let name = threadNames[pid] { return name }
        let name = timeline.strings.intern(String(pid))
        threadNames[pid] = name
        return name
    }

    /// The state key of the process that wrote a call (see `canonical`).
    func owner(_ call: StraceCall) -> Int32 {
        canonical(call.pid)
    }

    mutating func append(_ event: Event) {
        timeline.append(event, input: inputIndex)
        lastTime = max(lastTime, event.time)
    }

    /// Interns what `scratch` holds.
    mutating func internScratch() -> StringID {
        let bytes = scratch
        return bytes.withUnsafeBytes { timeline.strings.intern($0) }
    }

    /// Ends the input: records the grouped diagnostics, orders the events by time, and
    /// describes the input.
    ///
    /// - Throws: `ImportError.badData` for a file with no system call lines, or one in which
    ///   lines that are not strace outnumber those that are.
    consuming func finish() throws(ImportError) -> ImportedInput {
        guard sawContent else {
            throw .badData(path: path, location: nil, reason: "empty file, expected strace output")
        }
        guard callLines > 0 else {
            throw .badData(path: path, location: nil, reason: "no system call lines: not strace output, or only its cut-off last line")
        }
        if malformed.count > recognisedLines {
            throw .badData(
                path: path, location: malformed.location,
                reason: "mostly not strace output: \(malformed.count) of \(malformed.count + recognisedLines) lines are not in strace's shape, the first: \(malformed.message)")
        }
        unmapped.record(into: &diagnostics)
        unknownDescriptors.record(into: &diagnostics, severity: .info)
        malformed.record(into: &diagnostics, severity: .warning)
        unmatched.record(into: &diagnostics, severity: .warning)
        if unfinished.count > 0 {
            diagnostics.record(
                .info, code: "unfinished-call",
                message: "\(unfinished.count) call(s) had not returned when the trace ended; they make no events",
                count: unfinished.count)
        }
        if wholeSeconds {
            diagnostics.record(
                .info, code: "whole-second-timestamps",
                message: "timestamps have whole-second resolution (strace -t); record with -ttt or -tt to tell calls apart in time")
        }
        if clock.mode == .relative {
            diagnostics.record(
                .info, code: "relative-timestamps",
                message: "timestamps are relative (strace -r): times are their running sum, with no wall clock; record with -ttt to line this input up with others")
        }
        var timeline = timeline
        // Events sit at the time their call returned, which can be after later lines' times.
        timeline.sortByTime()
        timeline.wallClockStart = clock.wallClockStart
        timeline.end = max(timeline.end, lastTime)
        let info = InputInfo(
            path: path, format: InputFormat.strace.rawValue, events: timeline.count,
            wallClockStart: clock.wallClockStart, process: process, diagnostics: diagnostics)
        return ImportedInput(timeline: timeline, info: info)
    }
}
