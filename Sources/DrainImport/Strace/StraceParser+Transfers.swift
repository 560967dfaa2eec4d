import DrainTrace

/// What a descriptor refers to, for a call that moves data through it.
enum StraceTarget {
    /// A file on disk, by path.
    case file(path: StringID)
    /// An internet socket: its peer's address (0 while unknown), connection label and link.
    case socket(host: StringID, connection: StringID, link: LinkKind, transport: StraceTransport)
    /// A pipe, terminal, device, Unix socket, /proc or /sys file: no event.
    case other
    /// A descriptor the trace never showed being opened and strace did not annotate.
    case unknown
}

extension StraceParser {
    /// read, write, send and receive calls: on a file, `disk` read and write events; on an
    /// internet socket, `net` rx and tx events; `bytes` is what the call returned. Calls that
    /// moved nothing (end of file, errors) make no event.
    mutating func transferred(_ call: StraceCall) {
        guard call.succeeded, let bytes = call.result, bytes > 0, let descriptor = argument(0) else { return }
        let reads = call.syscall.readsData
        switch target(call, descriptor) {
        case let .file(path):
            switch call.syscall {
            case .send, .sendto, .sendmsg, .recv, .recvfrom, .recvmsg:
                return
            default:
                let operation: DiskOperation = reads ? .read : .write
                append(Event(time: call.returned, kind: .disk, thread: thread(call.pid), code: operation.rawValue, amount: bytes, label: path))
            }
        case .socket(var host, var connection, var link, let transport):
            if host == 0, let index = addressArgument(call.syscall), let range = argument(index),
                let address = StraceSocketAddress.parse(call.text, range), address.address != nil
            {
                (host, connection, link) = peer(address, in: call.text, transport: transport, pid: call.pid, descriptor: descriptor)
            }
            let direction: NetDirection = reads ? .rx : .tx
            append(
                Event(
                    time: call.returned, kind: .net, thread: thread(call.pid), code: direction.rawValue, code2: link.rawValue,
                    amount: bytes, label: host, label2: connection))
        case .other:
            return
        case .unknown:
            noteUnknownDescriptor(call, descriptor)
        }
    }

    /// sendfile(out, in, offset, count): the bytes copied are written to `out` (a `net` tx
    /// event on a socket, a `disk` write on a file) and read from `in` when it is a file.
    mutating func sentFile(_ call: StraceCall) {
        guard call.succeeded, let bytes = call.result, bytes > 0, let output = argument(0), let input = argument(1) else { return }
        switch target(call, output) {
        case let .file(path):
            append(Event(time: call.returned, kind: .disk, thread: thread(call.pid), code: DiskOperation.write.rawValue, amount: bytes, label: path))
        case let .socket(host, connection, link, _):
            append(
                Event(
                    time: call.returned, kind: .net, thread: thread(call.pid), code: NetDirection.tx.rawValue, code2: link.rawValue,
                    amount: bytes, label: host, label2: connection))
        case .other:
            break
        case .unknown:
            noteUnknownDescriptor(call, output)
        }
        if case let .file(path) = target(call, input) {
            append(Event(time: call.returned, kind: .disk, thread: thread(call.pid), code: DiskOperation.read.rawValue, amount: bytes, label: path))
        }
    }

    /// fsync and fdatasync of a file: a `disk` fsync event.
    mutating func synced(_ call: StraceCall) {
        guard call.succeeded, let descriptor = argument(0) else { return }
        switch target(call, descriptor) {
        case let .file(path):
            append(Event(time: call.returned, kind: .disk, thread: thread(call.pid), code: DiskOperation.fsync.rawValue, label: path))
        case .unknown:
            noteUnknownDescriptor(call, descriptor)
        case .socket, .other:
            break
        }
    }

    /// truncate(path, length) and ftruncate(fd, length): a `disk` truncate event whose file
    /// size is the new length.
    mutating func truncated(_ call: StraceCall) {
        guard call.succeeded, let first = argument(0), let lengthRange = argument(1),
            let length = StraceSyntax.integer(call.text, lengthRange), length >= 0
        else { return }
        let path: StringID
        if call.syscall == .truncate {
            scratch.removeAll(keepingCapacity: true)
            guard StraceEscapes.decodeString(call.text, at: first.lowerBound, to: first.upperBound, into: &scratch),
                !scratch.isEmpty, !Self.isPseudoFile(scratch)
            else { return }
            path = internScratch()
        } else {
            switch target(call, first) {
            case let .file(filePath): path = filePath
            case .unknown:
                noteUnknownDescriptor(call, first)
                return
            case .socket, .other: return
            }
        }
        append(
            Event(time: call.returned, kind: .disk, thread: thread(call.pid), code: DiskOperation.truncate.rawValue, amount2: length, label: path))
    }

    /// What the descriptor argument in `range` refers to: its `-yy` annotation when strace
    /// wrote one, else what the trace showed of it being opened.
    mutating func target(_ call: StraceCall, _ range: Range<Int>) -> StraceTarget {
        let text = call.text
        guard let (number, digitsEnd) = StraceSyntax.leadingInteger(text, from: range.lowerBound, to: range.upperBound), number >= 0,
            number <= Int64(Int32.max)
        else { return .unknown }
        let fd = Int32(number)
        if let annotation = StraceAnnotation.following(text, at: digitsEnd, end: range.upperBound) {
            return target(annotation: annotation.content, in: text, pid: call.pid, fd: fd)
        }
        let owner = owner(call)
        guard var descriptor = descriptors.descriptor(pid: owner, fd: fd) else { return .unknown }
        switch descriptor.kind {
        case .file:
            return .file(path: descriptor.path)
        case .other:
            return .other
        case .socket:
            if descriptor.connection == 0 {
                descriptor.connection = connectionLabel(descriptor, pid: call.pid, fd: fd)
                descriptors.set(pid: owner, fd: fd, descriptor)
            }
            return .socket(
                host: descriptor.remoteHost, connection: descriptor.connection, link: descriptor.loopback ? .loopback : .unspecified,
                transport: descriptor.transport)
        }
    }

    /// What a `-yy` annotation says a descriptor refers to.
    private mutating func target(annotation content: Range<Int>, in text: UnsafeRawBufferPointer, pid: Int32, fd: Int32) -> StraceTarget {
        switch StraceAnnotation.classify(text, content) {
        case let .path(range, device):
            scratch.removeAll(keepingCapacity: true)
            StraceEscapes.decode(text, from: range.lowerBound, to: range.upperBound, into: &scratch)
            guard !device, !Self.isPseudoFile(scratch) else { return .other }
            return .file(path: internScratch())
        case let .socket(transport, local, remote):
            var host: StringID = 0
            var loopback = false
            if let remote {
                let hostRange = StraceEndpoint.host(text, remote)
                let hostBytes = UnsafeRawBufferPointer(rebasing: text[hostRange])
                host = timeline.strings.intern(hostBytes)
                loopback = StraceEndpoint.isLoopback(hostBytes)
            }
            scratch.removeAll(keepingCapacity: true)
            appendTransport(transport)
            if let local {
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[local]))
            } else {
                appendDescriptorName(pid: pid, fd: fd)
            }
            if let remote {
                scratch.append(contentsOf: " → ".utf8)
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[remote]))
            }
            return .socket(host: host, connection: internScratch(), link: loopback ? .loopback : .unspecified, transport: transport)
        case .other:
            return .other
        }
    }

    /// `tcp 127.0.0.1:54052 → 127.0.0.1:8765`, the capture importer's form; a side whose
    /// address the trace did not show is named by pid and descriptor.
    private mutating func connectionLabel(_ descriptor: StraceDescriptor, pid: Int32, fd: Int32) -> StringID {
        scratch.removeAll(keepingCapacity: true)
        appendTransport(descriptor.transport)
        if descriptor.local != 0 {
            scratch.append(contentsOf: timeline.strings[descriptor.local].utf8)
        } else {
            appendDescriptorName(pid: pid, fd: fd)
        }
        if descriptor.remote != 0 {
            scratch.append(contentsOf: " → ".utf8)
            scratch.append(contentsOf: timeline.strings[descriptor.remote].utf8)
        }
        return internScratch()
    }

    /// The peer of a datagram sent to or received from `address` on a socket with no fixed peer.
    private mutating func peer(
        _ address: StraceSocketAddress, in text: UnsafeRawBufferPointer, transport: StraceTransport, pid: Int32,
        descriptor: Range<Int>
    ) -> (host: StringID, connection: StringID, link: LinkKind) {
        guard let addressRange = address.address else { return (0, 0, .unspecified) }
        let hostBytes = UnsafeRawBufferPointer(rebasing: text[addressRange])
        let host = timeline.strings.intern(hostBytes)
        let link: LinkKind = StraceEndpoint.isLoopback(hostBytes) ? .loopback : .unspecified
        scratch.removeAll(keepingCapacity: true)
        appendTransport(transport)
        let fd = StraceSyntax.leadingInteger(text, from: descriptor.lowerBound, to: descriptor.upperBound).map { Int32(truncatingIfNeeded: $0.0) } ?? -1
        appendDescriptorName(pid: pid, fd: fd)
        scratch.append(contentsOf: " → ".utf8)
        _ = address.appendEndpoint(text, to: &scratch)
        return (host, internScratch(), link)
    }

    private mutating func appendTransport(_ transport: StraceTransport) {
        let name = transport.name
        scratch.append(contentsOf: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        scratch.append(ASCII.space)
    }

    private mutating func appendDescriptorName(pid: Int32, fd: Int32) {
        if pid != 0 { scratch.append(contentsOf: "pid \(pid) ".utf8) }
        scratch.append(contentsOf: "fd \(fd)".utf8)
    }

    /// The argument that holds the peer's address of a datagram, if the call has one.
    private func addressArgument(_ syscall: StraceSyscall) -> Int? {
        switch syscall {
        case .sendto, .recvfrom: 4
        case .sendmsg, .recvmsg: 1
        default: nil
        }
    }

    /// Counts a call on a descriptor of unknown kind, describing the first.
    private mutating func noteUnknownDescriptor(_ call: StraceCall, _ range: Range<Int>) {
        if unknownDescriptors.count == 0 {
            let descriptor = QuotedText.quote(UnsafeRawBufferPointer(rebasing: call.text[range]), limit: 16)
            unknownDescriptors.first(
                message: "calls on descriptors the trace never showed being opened (inherited, like standard output, or opened before tracing began) make no events, the first on descriptor \(descriptor); strace -yy names them",
                location: "line \(call.line)")
        }
        unknownDescriptors.count += 1
    }

    /// Whether a path names no file on disk: devices, /proc and /sys.
    static func isPseudoFile(_ path: [UInt8]) -> Bool {
        path.withUnsafeBytes { bytes in
            StraceSyntax.matches(bytes, at: 0, end: bytes.count, "/dev/") || StraceSyntax.matches(bytes, at: 0, end: bytes.count, "/proc/")
                || StraceSyntax.matches(bytes, at: 0, end: bytes.count, "/sys/")
        }
    }
}
