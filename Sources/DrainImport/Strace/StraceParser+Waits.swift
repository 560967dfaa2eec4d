import DrainTrace

/// How long a waiting call was allowed to wait.
enum StraceTimeout {
    case infinite
    case after(Nanoseconds)
}

extension StraceParser {
    /// Dispatches a finished call to what it means for the timeline and descriptor tables.
    mutating func apply(_ call: StraceCall, name: Range<Int>) {
        StraceSyntax.splitArguments(call.text, from: call.arguments.lowerBound, to: call.arguments.upperBound, into: &arguments)
        switch call.syscall {
        case .poll, .ppoll, .select, .pselect6, .epollWait, .epollPwait, .epollPwait2:
            waited(call, name: name)
        case .nanosleep, .clockNanosleep:
            slept(call)
        case .read, .pread, .readv, .preadv, .write, .pwrite, .writev, .pwritev, .send, .sendto, .sendmsg, .recv, .recvfrom,
            .recvmsg:
            transferred(call)
        case .sendfile:
            sentFile(call)
        case .fsync, .fdatasync:
            synced(call)
        case .truncate, .ftruncate:
            truncated(call)
        case .open, .openat, .openat2, .creat:
            opened(call)
        case .socket:
            socketCreated(call)
        case .connect, .bind, .getsockname, .getpeername:
            addressed(call)
        case .accept, .accept4:
            accepted(call)
        case .close, .closeRange:
            closed(call)
        case .dup, .dup2, .dup3, .fcntl:
            duplicated(call)
        case .pipe, .socketpair, .otherDescriptor:
            otherOpened(call)
        case .clone, .fork:
            cloned(call)
        case .execve:
            executed(call)
        }
    }

    /// poll, ppoll, select, pselect6 and the epoll waits: a timeout is a `poll` event (a check
    /// for work on a clock), readiness after a wait is a `wakeup` (reason `io`). A call with a
    /// zero timeout did not wait, so it is neither; nor is a call a signal interrupted.
    private mutating func waited(_ call: StraceCall, name: Range<Int>) {
        guard call.succeeded, let ready = call.result else { return }
        let timeout: StraceTimeout?
        scratch.removeAll(keepingCapacity: true)
        labelledDescriptors.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: call.text[name]))
        scratch.append(StraceSyntax.openParenthesis)
        let text = call.text
        switch call.syscall {
        case .poll, .ppoll:
            if let set = argument(0) { labelPollDescriptors(text, set) }
            timeout = call.syscall == .poll ? milliseconds(text, argument(2)) : timespec(text, argument(2), microseconds: false)
        case .select, .pselect6:
            for index in 1...3 {
                if let set = argument(index) { labelDescriptorSet(text, set) }
            }
            timeout = timespec(text, argument(4), microseconds: call.syscall == .select)
        default:
            if let descriptor = argument(0) { labelDescriptor(text, descriptor.lowerBound, descriptor.upperBound) }
            timeout = call.syscall == .epollPwait2 ? timespec(text, argument(3), microseconds: false) : milliseconds(text, argument(3))
        }
        scratch.append(StraceSyntax.closeParenthesis)
        guard let timeout else { return }
        let source: StringID
        if labelledDescriptors.isEmpty {
            // Waiting on nothing is sleeping: `select(0, NULL, NULL, NULL, {…})`.
            source = timeline.strings.intern("sleep")
        } else {
            source = internScratch()
        }
        let thread = thread(call.pid)
        switch (ready, timeout) {
        case let (0, .after(interval)) where interval > 0:
            append(Event(time: call.returned, kind: .poll, thread: thread, duration: interval, label: source))
        case (1..., .infinite), (1..., .after(1...)):
            append(Event(time: call.returned, kind: .wakeup, thread: thread, label: timeline.strings.intern("io"), label2: source))
        default:
            break
        }
    }

    /// nanosleep and clock_nanosleep: a finished sleep is a `poll` event with source "sleep"
    /// and the requested time as its interval; a sleep until an absolute time
    /// (`TIMER_ABSTIME`) lasted the time it spent in the call.
    private mutating func slept(_ call: StraceCall) {
        guard call.succeeded, call.result == 0 else { return }
        let interval: Nanoseconds
        if call.syscall == .clockNanosleep, let flags = argument(1), StraceSyntax.contains(call.text, flags, "TIMER_ABSTIME") {
            interval = call.returned - call.entry
        } else {
            guard case let .after(requested) = timespec(call.text, argument(call.syscall == .nanosleep ? 0 : 2), microseconds: false)
            else { return }
            interval = requested
        }
        guard interval > 0 else { return }
        append(Event(time: call.returned, kind: .poll, thread: thread(call.pid), duration: interval, label: timeline.strings.intern("sleep")))
    }

    /// The `index`th argument's range, if the call has that many.
    func argument(_ index: Int) -> Range<Int>? {
        index < arguments.count ? arguments[index] : nil
    }

    /// A timeout in milliseconds (`500`); negative means no timeout.
    private func milliseconds(_ text: UnsafeRawBufferPointer, _ range: Range<Int>?) -> StraceTimeout? {
        guard let range, let value = StraceSyntax.integer(text, range) else { return nil }
        guard value >= 0 else { return .infinite }
        guard value <= Int64.max / 1_000_000 else { return .infinite }
        return .after(value * 1_000_000)
    }

    /// A `struct timespec` or `timeval`: `{tv_sec=0, tv_nsec=500000000}` (or the older
    /// `{0, 500000000}`); `NULL` is no timeout.
    func timespec(_ text: UnsafeRawBufferPointer, _ range: Range<Int>?, microseconds: Bool) -> StraceTimeout? {
        guard let range else { return nil }
        if StraceSyntax.matches(text, at: range.lowerBound, end: range.upperBound, "NULL") { return .infinite }
        guard range.count > 2, text[range.lowerBound] == ASCII.openBrace else { return nil }
        var numbers: (Int64, Int64) = (0, 0)
        var found = 0
        var index = range.lowerBound + 1
        while index < range.upperBound, found < 2 {
            let byte = text[index]
            if ASCII.isDigit(byte) || (byte == ASCII.minus && index + 1 < range.upperBound && ASCII.isDigit(text[index + 1])) {
                guard let (value, after) = StraceSyntax.leadingInteger(text, from: index, to: range.upperBound) else { return nil }
                if found == 0 { numbers.0 = value } else { numbers.1 = value }
                found += 1
                index = after
                continue
            }
            if StraceLine.isNameByte(byte) {
                // Skip field names such as `tv_sec`, whose digits are not values.
                while index < range.upperBound, StraceLine.isNameByte(text[index]) { index += 1 }
                continue
            }
            index += 1
        }
        guard found == 2, numbers.0 >= 0, numbers.1 >= 0 else { return nil }
        // Both fields are the trace's numbers, unbounded (`tv_nsec` is not checked to stay
        // under a second): a sum beyond 64-bit nanoseconds is no timeout Drain can use.
        let (whole, wholeOverflow) = numbers.0.multipliedReportingOverflow(by: Clock.nanosecondsPerSecond)
        let (part, partOverflow) = numbers.1.multipliedReportingOverflow(by: microseconds ? 1000 : 1)
        let (interval, sumOverflow) = whole.addingReportingOverflow(part)
        guard !wholeOverflow, !partOverflow, !sumOverflow else { return nil }
        return .after(interval)
    }

    /// Adds the descriptors of a poll set, `[{fd=3, events=POLLIN}, {fd=5<…>, …}]`, to the label.
    private mutating func labelPollDescriptors(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) {
        var index = range.lowerBound
        while let at = StraceSyntax.firstIndex(of: "fd=", in: text, index..<range.upperBound) {
            index = labelDescriptor(text, at + 3, range.upperBound)
        }
    }

    /// Adds the descriptors of a select set, `[3 5]`, to the label.
    private mutating func labelDescriptorSet(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard range.count >= 2, text[range.lowerBound] == ASCII.openBracket else { return }
        var index = range.lowerBound + 1
        let end = range.upperBound - 1
        while index < end {
            if ASCII.isDigit(text[index]) {
                index = labelDescriptor(text, index, end)
            } else {
                index += 1
            }
        }
    }

    /// Adds the descriptor at `start` (digits and any `-yy` annotation) to the label once;
    /// returns the index after it.
    @discardableResult
    private mutating func labelDescriptor(_ text: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int {
        guard let (fd, digitsEnd) = StraceSyntax.leadingInteger(text, from: start, to: end), fd >= 0, fd <= Int64(Int32.max) else {
            return start + 1
        }
        var after = digitsEnd
        let annotation = StraceAnnotation.following(text, at: digitsEnd, end: end)
        if let annotation { after = annotation.end }
        guard !labelledDescriptors.contains(Int32(fd)) else { return after }
        if !labelledDescriptors.isEmpty { scratch.append(ASCII.comma) }
        labelledDescriptors.append(Int32(fd))
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<digitsEnd]))
        if let annotation {
            scratch.append(StraceSyntax.lessThan)
            StraceEscapes.decode(text, from: annotation.content.lowerBound, to: annotation.content.upperBound, into: &scratch)
            scratch.append(StraceSyntax.greaterThan)
        }
        return after
    }
}
