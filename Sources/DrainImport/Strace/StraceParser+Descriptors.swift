import DrainTrace

/// Following descriptors through the trace, so that reads and writes without `-yy`
/// annotations still name their file or peer.
extension StraceParser {
    /// open, openat, openat2, creat: the descriptor names a file (or, for devices, /proc and
    /// /sys, nothing on disk). `O_TRUNC` (always, for creat) is a `disk` truncate event.
    mutating func opened(_ call: StraceCall) {
        guard call.succeeded, let result = call.result, result <= Int64(Int32.max) else { return }
        let fd = Int32(result)
        let owner = owner(call)
        let text = call.text
        let pathIndex = call.syscall == .openat || call.syscall == .openat2 ? 1 : 0
        let flags = call.syscall == .creat ? nil : argument(pathIndex + 1)
        let truncates = call.syscall == .creat || flags.map { StraceSyntax.contains(text, $0, "O_TRUNC") } == true
        let closeOnExec = flags.map { StraceSyntax.contains(text, $0, "O_CLOEXEC") } == true
        scratch.removeAll(keepingCapacity: true)
        var device = false
        if let annotation = call.resultAnnotation {
            // `-yy` names the file opened, with its full path.
            guard case let .path(range, isDevice) = StraceAnnotation.classify(text, annotation) else {
                return descriptors.set(pid: owner, fd: fd, .other)
            }
            StraceEscapes.decode(text, from: range.lowerBound, to: range.upperBound, into: &scratch)
            device = isDevice
        } else if let path = argument(pathIndex) {
            let relative = path.count > 1 && text[path.lowerBound] == ASCII.quote && text[path.lowerBound + 1] != ASCII.slash
            if relative, pathIndex == 1, let directory = argument(0) { appendDirectory(call, directory) }
            StraceEscapes.decodeString(text, at: path.lowerBound, to: path.upperBound, into: &scratch)
        }
        guard !scratch.isEmpty, !device, !Self.isPseudoFile(scratch) else {
            return descriptors.set(pid: owner, fd: fd, .other)
        }
        let path = internScratch()
        descriptors.set(pid: owner, fd: fd, StraceDescriptor(kind: .file, path: path, closeOnExec: closeOnExec))
        if truncates {
            append(
                Event(time: call.returned, kind: .disk, thread: thread(call.pid), code: DiskOperation.truncate.rawValue, amount2: 0, label: path))
        }
    }

    /// Appends the directory an `openat` path is relative to, and a `/`, when the trace
    /// tells it: from `-yy` (`AT_FDCWD</home/me>`, `3</srv/www>`) or from the directory's open.
    private mutating func appendDirectory(_ call: StraceCall, _ range: Range<Int>) {
        let text = call.text
        var index = range.lowerBound
        var number: Int64?
        if StraceSyntax.matches(text, at: index, end: range.upperBound, "AT_FDCWD") {
            index += 8
        } else if let (value, after) = StraceSyntax.leadingInteger(text, from: index, to: range.upperBound) {
            number = value
            index = after
        } else {
            return
        }
        let before = scratch.count
        if let annotation = StraceAnnotation.following(text, at: index, end: range.upperBound),
            case let .path(path, _) = StraceAnnotation.classify(text, annotation.content)
        {
            StraceEscapes.decode(text, from: path.lowerBound, to: path.upperBound, into: &scratch)
        } else if let number, number >= 0, number <= Int64(Int32.max),
            let directory = descriptors.descriptor(pid: owner(call), fd: Int32(number)), directory.kind == .file
        {
            scratch.append(contentsOf: timeline.strings[directory.path].utf8)
        }
        if scratch.count > before, scratch.last != ASCII.slash { scratch.append(ASCII.slash) }
    }

    /// socket(domain, type, protocol): internet stream and datagram sockets become `net`
    /// endpoints; every other socket (Unix, netlink, raw) is a descriptor of no interest.
    mutating func socketCreated(_ call: StraceCall) {
        guard call.succeeded, let result = call.result, result <= Int64(Int32.max), let domain = argument(0), let type = argument(1)
        else { return }
        let text = call.text
        let inet = StraceSyntax.matches(text, at: domain.lowerBound, end: domain.upperBound, "AF_INET")
        let datagram = StraceSyntax.contains(text, type, "SOCK_DGRAM")
        guard inet, datagram || StraceSyntax.contains(text, type, "SOCK_STREAM") else {
            return descriptors.set(pid: owner(call), fd: Int32(result), .other)
        }
        descriptors.set(
            pid: owner(call), fd: Int32(result),
            StraceDescriptor(
                kind: .socket, transport: datagram ? .udp : .tcp, closeOnExec: StraceSyntax.contains(text, type, "SOCK_CLOEXEC")))
    }

    /// connect and getpeername give a socket its peer; bind and getsockname its own address.
    /// A non-blocking connect that is still in progress (`EINPROGRESS`) counts.
    mutating func addressed(_ call: StraceCall) {
        guard let descriptor = argument(0), let addressRange = argument(1),
            let (number, _) = StraceSyntax.leadingInteger(call.text, from: descriptor.lowerBound, to: descriptor.upperBound),
            number >= 0, number <= Int64(Int32.max)
        else { return }
        let connects = call.syscall == .connect || call.syscall == .getpeername
        guard call.succeeded || (call.syscall == .connect && call.failed(with: "EINPROGRESS")),
            let address = StraceSocketAddress.parse(call.text, addressRange), address.family == .inet || address.family == .inet6,
            let addressText = address.address
        else { return }
        let fd = Int32(number)
        let owner = owner(call)
        // A socket made before tracing began is taken to be TCP.
        var entry = descriptors.descriptor(pid: owner, fd: fd) ?? StraceDescriptor(kind: .socket)
        guard entry.kind == .socket else { return }
        scratch.removeAll(keepingCapacity: true)
        _ = address.appendEndpoint(call.text, to: &scratch)
        let endpoint = internScratch()
        if connects {
            let host = UnsafeRawBufferPointer(rebasing: call.text[addressText])
            entry.remote = endpoint
            entry.remoteHost = timeline.strings.intern(host)
            entry.loopback = StraceEndpoint.isLoopback(host)
        } else {
            entry.local = endpoint
        }
        entry.connection = 0
        descriptors.set(pid: owner, fd: fd, entry)
    }

    /// accept and accept4: the new descriptor is a socket to the peer strace shows, on the
    /// listening socket's address.
    mutating func accepted(_ call: StraceCall) {
        guard call.succeeded, let result = call.result, result <= Int64(Int32.max), let listener = argument(0) else { return }
        let text = call.text
        let owner = owner(call)
        let fd = Int32(result)
        let address = argument(1).flatMap { StraceSocketAddress.parse(text, $0) }
        var entry = StraceDescriptor(kind: .socket)
        if let (number, _) = StraceSyntax.leadingInteger(text, from: listener.lowerBound, to: listener.upperBound),
            number >= 0, number <= Int64(Int32.max), let listening = descriptors.descriptor(pid: owner, fd: Int32(number))
        {
            guard listening.kind == .socket else { return descriptors.set(pid: owner, fd: fd, .other) }
            entry.transport = listening.transport
            entry.local = listening.local
        } else if address == nil {
            return descriptors.remove(pid: owner, fd: fd)
        }
        if let address {
            guard address.family == .inet || address.family == .inet6 else { return descriptors.set(pid: owner, fd: fd, .other) }
            if let addressText = address.address {
                scratch.removeAll(keepingCapacity: true)
                _ = address.appendEndpoint(text, to: &scratch)
                entry.remote = internScratch()
                let host = UnsafeRawBufferPointer(rebasing: text[addressText])
                entry.remoteHost = timeline.strings.intern(host)
                entry.loopback = StraceEndpoint.isLoopback(host)
            }
        }
        entry.closeOnExec = argument(3).map { StraceSyntax.contains(text, $0, "SOCK_CLOEXEC") } == true
        descriptors.set(pid: owner, fd: fd, entry)
    }

    /// close and close_range. Linux frees the descriptor even when close reports an error.
    mutating func closed(_ call: StraceCall) {
        let text = call.text
        guard let first = argument(0), let firstNumber = StraceSyntax.integer(text, first), firstNumber >= 0 else { return }
        if call.syscall == .close {
            guard firstNumber <= Int64(Int32.max) else { return }
            return descriptors.remove(pid: owner(call), fd: Int32(firstNumber))
        }
        guard call.succeeded, let last = argument(1) else { return }
        let lastNumber: Int64
        if StraceSyntax.matches(text, at: last.lowerBound, end: last.upperBound, "~0") {
            lastNumber = Int64.max
        } else {
            guard let number = StraceSyntax.integer(text, last) else { return }
            lastNumber = number
        }
        guard lastNumber >= firstNumber else { return }
        let markOnly = argument(2).map { StraceSyntax.contains(text, $0, "CLOSE_RANGE_CLOEXEC") } == true
        descriptors.closeRange(pid: owner(call), firstNumber...lastNumber, markOnly: markOnly)
    }

    /// dup, dup2, dup3 and fcntl's F_DUPFD copy a descriptor; F_SETFD sets or clears its
    /// close-on-exec flag.
    mutating func duplicated(_ call: StraceCall) {
        let text = call.text
        guard call.succeeded, let result = call.result, let oldRange = argument(0), let old = StraceSyntax.integer(text, oldRange),
            old >= 0, old <= Int64(Int32.max)
        else { return }
        let owner = owner(call)
        let closeOnExec: Bool
        switch call.syscall {
        case .dup:
            closeOnExec = false
        case .dup2, .dup3:
            closeOnExec = argument(2).map { StraceSyntax.contains(text, $0, "O_CLOEXEC") } == true
        default:
            guard let command = argument(1) else { return }
            if StraceSyntax.matches(text, at: command.lowerBound, end: command.upperBound, "F_SETFD") {
                guard var entry = descriptors.descriptor(pid: owner, fd: Int32(old)) else { return }
                entry.closeOnExec = argument(2).map { StraceSyntax.contains(text, $0, "FD_CLOEXEC") } == true
                return descriptors.set(pid: owner, fd: Int32(old), entry)
            }
            guard StraceSyntax.matches(text, at: command.lowerBound, end: command.upperBound, "F_DUPFD") else { return }
            closeOnExec = StraceSyntax.contains(text, command, "CLOEXEC")
        }
        guard result <= Int64(Int32.max) else { return }
        let new = Int32(result)
        guard var entry = descriptors.descriptor(pid: owner, fd: Int32(old)) else {
            return descriptors.remove(pid: owner, fd: new)
        }
        entry.closeOnExec = closeOnExec
        // The label of a socket whose own address is unknown names the descriptor.
        entry.connection = 0
        descriptors.set(pid: owner, fd: new, entry)
    }

    /// pipe, pipe2, socketpair, eventfd, epoll_create, memfd_create…: descriptors that refer
    /// to nothing on disk or the network.
    mutating func otherOpened(_ call: StraceCall) {
        guard call.succeeded, let result = call.result else { return }
        let owner = owner(call)
        let text = call.text
        let pairIndex: Int
        switch call.syscall {
        case .pipe: pairIndex = 0
        case .socketpair: pairIndex = 3
        default:
            guard result <= Int64(Int32.max) else { return }
            var entry = StraceDescriptor.other
            entry.closeOnExec = StraceSyntax.contains(text, call.arguments, "CLOEXEC")
            return descriptors.set(pid: owner, fd: Int32(result), entry)
        }
        guard let pair = argument(pairIndex), pair.count > 2, text[pair.lowerBound] == ASCII.openBracket else { return }
        var entry = StraceDescriptor.other
        entry.closeOnExec = StraceSyntax.contains(text, call.arguments, "CLOEXEC")
        var index = pair.lowerBound + 1
        while index < pair.upperBound {
            if let (number, after) = StraceSyntax.leadingInteger(text, from: index, to: pair.upperBound) {
                if number >= 0, number <= Int64(Int32.max) { descriptors.set(pid: owner, fd: Int32(number), entry) }
                index = after
            } else {
                index += 1
            }
        }
    }

    /// clone, clone3, fork, vfork: the child shares its parent's descriptor table with
    /// `CLONE_FILES` (threads), and starts with a copy of it otherwise.
    mutating func cloned(_ call: StraceCall) {
        guard call.succeeded, let child = call.result, child > 0, child <= Int64(Int32.max) else { return }
        let shared = StraceSyntax.contains(call.text, call.arguments, "CLONE_FILES")
        descriptors.cloned(parent: owner(call), child: Int32(child), shared: shared)
    }

    /// execve, execveat: the process drops its close-on-exec descriptors; the first program
    /// run names the input's process.
    mutating func executed(_ call: StraceCall) {
        guard call.succeeded else { return }
        descriptors.executed(pid: owner(call))
        guard process == nil else { return }
        let text = call.text
        guard let path = [argument(0), argument(1)].compactMap({ $0 }).first(where: { !$0.isEmpty && text[$0.lowerBound] == ASCII.quote }) else { return }
        scratch.removeAll(keepingCapacity: true)
        StraceEscapes.decodeString(text, at: path.lowerBound, to: path.upperBound, into: &scratch)
        let name = scratch.split(separator: ASCII.slash, omittingEmptySubsequences: true).last.map(Array.init) ?? scratch
        guard !name.isEmpty else { return }
        process = String(decoding: name, as: UTF8.self)
    }
}
