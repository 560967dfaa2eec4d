import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Writes strace text to a file in a fresh temporary directory and imports it, the way the
/// importer meets strace output in use. Lines are joined with newlines, with a final one.
func importStrace(_ lines: [String], chunkSize: Int? = nil) throws -> ImportedInput {
    try importStrace(text: lines.joined(separator: "\n") + "\n", chunkSize: chunkSize)
}

func importStrace(text: String, chunkSize: Int? = nil) throws -> ImportedInput {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("trace.strace")
    try Data(text.utf8).write(to: url)
    if let chunkSize {
        let file = try FileByteSource(path: url.path)
        defer { file.close() }
        return try StraceImporter.read(source: file, path: url.path, inputIndex: 0, chunkSize: chunkSize)
    }
    return try StraceImporter.read(path: url.path)
}

/// One event of a timeline with its strings resolved, for comparisons.
struct StraceEvent: Equatable, CustomStringConvertible {
    var time: Nanoseconds
    var kind: EventKind
    var thread: String
    var code: UInt8
    var code2: UInt8
    var amount: Int64
    var amount2: Int64
    var duration: Nanoseconds
    var label: String
    var label2: String

    var description: String {
        "\(kind.traceName) t=\(time) thread=\(thread) code=\(code)/\(code2) amount=\(amount)/\(amount2) dur=\(duration) \(label.debugDescription) \(label2.debugDescription)"
    }
}

extension ImportedInput {
    var events: [StraceEvent] {
        (0..<timeline.count).map { row in
            let event = timeline[row]
            return StraceEvent(
                time: event.time, kind: event.kind, thread: timeline.strings[event.thread], code: event.code, code2: event.code2,
                amount: event.amount, amount2: event.amount2, duration: event.duration, label: timeline.strings[event.label],
                label2: timeline.strings[event.label2])
        }
    }

    func events(_ kind: EventKind) -> [StraceEvent] { events.filter { $0.kind == kind } }
}

/// Milliseconds and microseconds as nanoseconds, to write expected times readably.
func ms(_ value: Int64) -> Nanoseconds { value * 1_000_000 }
func us(_ value: Int64) -> Nanoseconds { value * 1_000 }

/// How each kind of system call becomes events (docs/strace.md, "Mapping").
@Suite struct StraceMappingTests {
    // MARK: Waiting

    @Test func pollTimeoutIsAPollEventAndReadinessAWakeup() throws {
        let input = try importStrace([
            #"100  1700001000.000000 poll([{fd=3, events=POLLIN}], 1, 500) = 0 (Timeout) <0.500123>"#,
            #"100  1700001000.500200 poll([{fd=3, events=POLLIN}, {fd=5, events=POLLOUT}], 2, 500) = 1 ([{fd=5, revents=POLLOUT}]) <0.000050>"#,
            #"100  1700001000.600000 poll([{fd=3, events=POLLIN}], 1, 0) = 0 (Timeout) <0.000004>"#,
            #"100  1700001000.700000 poll([{fd=3, events=POLLIN}], 1, -1) = 1 ([{fd=3, revents=POLLIN}]) <0.100000>"#,
            #"100  1700001000.900000 poll([{fd=3, events=POLLIN}], 1, 500) = ? ERESTART_RESTARTBLOCK (Interrupted by signal) <0.010000>"#,
        ])
        // Events sit where the call returned: its start plus the -T time spent in it.
        #expect(
            input.events == [
                StraceEvent(
                    time: us(500_123), kind: .poll, thread: "100", code: 0, code2: 0, amount: 0, amount2: -1, duration: ms(500),
                    label: "poll(3)", label2: ""),
                StraceEvent(
                    time: us(500_200 + 50), kind: .wakeup, thread: "100", code: 0, code2: 0, amount: 0, amount2: -1, duration: 0,
                    label: "io", label2: "poll(3,5)"),
                // The zero-timeout check did not wait; the interrupted wait returned nothing.
                StraceEvent(
                    time: us(700_000 + 100_000), kind: .wakeup, thread: "100", code: 0, code2: 0, amount: 0, amount2: -1,
                    duration: 0, label: "io", label2: "poll(3)"),
            ])
    }

    @Test func selectPpollAndEpollWaits() throws {
        let input = try importStrace([
            #"7  1700000010.000000 select(6, [3 5], [5], NULL, {tv_sec=1, tv_usec=250000}) = 0 (Timeout) <1.250100>"#,
            #"7  1700000012.000000 pselect6(4, [3], NULL, NULL, {tv_sec=0, tv_nsec=300000000}, NULL) = 0 (Timeout) <0.300050>"#,
            #"7  1700000013.000000 ppoll([{fd=4, events=POLLIN}], 1, {tv_sec=2, tv_nsec=0}, NULL, 8) = 0 (Timeout) <2.000100>"#,
            #"7  1700000016.000000 epoll_wait(9, [], 1024, 750) = 0 <0.750070>"#,
            #"7  1700000017.000000 epoll_pwait(9, [{events=EPOLLIN, data={u32=4, u64=4}}, {events=EPOLLIN, data={u32=5, u64=5}}], 1024, -1, NULL, 8) = 2 <0.040000>"#,
            #"7  1700000018.000000 epoll_pwait2(9, [], 1024, {tv_sec=0, tv_nsec=20000000}, NULL, 8) = 0 <0.020030>"#,
            #"7  1700000019.000000 select(0, NULL, NULL, NULL, {tv_sec=0, tv_usec=100000}) = 0 (Timeout) <0.100060>"#,
        ])
        let polls = input.events(.poll)
        #expect(polls.map(\.label) == ["select(3,5)", "pselect6(3)", "ppoll(4)", "epoll_wait(9)", "epoll_pwait2(9)", "sleep"])
        #expect(polls.map(\.duration) == [ms(1250), ms(300), ms(2000), ms(750), ms(20), ms(100)])
        #expect(polls.map(\.time) == [us(1_250_100), us(2_300_050), us(5_000_100), us(6_750_070), us(8_020_030), us(9_100_060)])
        let wakeups = input.events(.wakeup)
        #expect(wakeups.map(\.label2) == ["epoll_pwait(9)"])
        #expect(wakeups.map(\.time) == [us(7_040_000)])
    }

    @Test func sleepsArePollsWithTheRequestedInterval() throws {
        let input = try importStrace([
            #"8  1700000000.000000 nanosleep({tv_sec=0, tv_nsec=200000000}, NULL) = 0 <0.200100>"#,
            #"8  1700000000.300000 clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=1, tv_nsec=500000000}, 0x7ffe9f5e0ce0) = 0 <1.500200>"#,
            // An absolute deadline says nothing about the length: the time in the call does.
            #"8  1700000002.000000 clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=1108, tv_nsec=231374318}, NULL) = 0 <0.200163>"#,
            // The older struct format, without field names.
            #"8  1700000003.000000 nanosleep({0, 50000000}, NULL) = 0 <0.050080>"#,
            // Cut short by a signal: no event.
            #"8  1700000004.000000 nanosleep({tv_sec=5, tv_nsec=0}, 0x7ffc) = ? ERESTART_RESTARTBLOCK (Interrupted by signal) <0.010000>"#,
        ])
        let polls = input.events(.poll)
        #expect(polls.map(\.label) == ["sleep", "sleep", "sleep", "sleep"])
        #expect(polls.map(\.duration) == [ms(200), ms(1500), us(200_163), ms(50)])
        #expect(polls.map(\.time) == [us(200_100), us(1_800_200), us(2_200_163), us(3_050_080)])
    }

    @Test func timeoutsBeyond64BitNanosecondsAreNoTimeouts() throws {
        // Each field fits an Int64 but the timeout in nanoseconds does not; these overflowed.
        let input = try importStrace([
            #"8  1700000000.000000 nanosleep({tv_sec=1, tv_nsec=9223372036854775807}, NULL) = 0 <0.000100>"#,
            #"8  1700000001.000000 select(4, [3], NULL, NULL, {tv_sec=0, tv_usec=9223372036854776}) = 0 (Timeout) <0.000100>"#,
            #"8  1700000002.000000 nanosleep({tv_sec=92233720368, tv_nsec=0}, NULL) = 0 <0.000100>"#,
            #"8  1700000003.000000 nanosleep({tv_sec=0, tv_nsec=5000}, NULL) = 0 <0.000100>"#,
        ])
        #expect(input.events(.poll).map(\.duration) == [us(5)])
    }

    // MARK: Disk

    @Test func writesAndReadsOfFilesNamedByYY() throws {
        let input = try importStrace([
            #"9  1700000000.000000 write(3</var/mobile/state.json>, "{\"a\":1}\n", 8) = 8 <0.000020>"#,
            #"9  1700000000.001000 pwrite64(3</var/mobile/state.json>, "xy", 2, 4096) = 2 <0.000010>"#,
            #"9  1700000000.002000 writev(4</tmp/log.txt>, [{iov_base="ab", iov_len=2}, {iov_base="cde", iov_len=3}], 2) = 5 <0.000010>"#,
            #"9  1700000000.003000 read(5</etc/hosts>, "127.0.0.1 localhost\n", 4096) = 20 <0.000010>"#,
            #"9  1700000000.004000 pread64(5</etc/hosts>, "", 4096, 20) = 0 <0.000010>"#,
            #"9  1700000000.005000 fsync(3</var/mobile/state.json>) = 0 <0.003000>"#,
            #"9  1700000000.009000 fdatasync(4</tmp/log.txt>) = 0 <0.001000>"#,
            #"9  1700000000.011000 write(3</var/mobile/state.json>, "x", 1) = -1 ENOSPC (No space left on device) <0.000010>"#,
        ])
        let disk = input.events(.disk)
        #expect(disk.map(\.code) == [DiskOperation.write, .write, .write, .read, .fsync, .fsync].map(\.rawValue))
        #expect(disk.map(\.amount) == [8, 2, 5, 20, 0, 0])
        #expect(
            disk.map(\.label) == [
                "/var/mobile/state.json", "/var/mobile/state.json", "/tmp/log.txt", "/etc/hosts", "/var/mobile/state.json",
                "/tmp/log.txt",
            ])
        #expect(disk.allSatisfy { $0.amount2 == -1 })
        #expect(input.timeline.count == 6)
    }

    @Test func descriptorsOpenedInTheTraceNameTheirFilesWithoutYY() throws {
        let input = try importStrace([
            #"9  1700000000.000000 openat(AT_FDCWD, "/data/db.sqlite", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 3 <0.000020>"#,
            #"9  1700000000.001000 pwrite64(3, "SQLite format 3\0", 4096, 0) = 4096 <0.000030>"#,
            #"9  1700000000.002000 fdatasync(3) = 0 <0.002000>"#,
            #"9  1700000000.005000 openat(AT_FDCWD, "cache/blob.bin", O_WRONLY|O_CREAT|O_TRUNC, 0600) = 4 <0.000020>"#,
            #"9  1700000000.006000 write(4, "...", 3) = 3 <0.000010>"#,
            #"9  1700000000.007000 close(4) = 0 <0.000005>"#,
            #"9  1700000000.008000 openat(3, "journal", O_RDONLY) = 4 <0.000020>"#,
            #"9  1700000000.009000 creat("/data/new.txt", 0644) = 5 <0.000020>"#,
            #"9  1700000000.010000 ftruncate(3, 8192) = 0 <0.000020>"#,
            #"9  1700000000.011000 truncate("/data/other.txt", 0) = 0 <0.000020>"#,
            #"9  1700000000.012000 read(4, "j", 1) = 1 <0.000010>"#,
        ])
        let disk = input.events(.disk)
        #expect(
            disk.map { "\(DiskOperation(rawValue: $0.code)!.traceName) \($0.amount) \($0.amount2) \($0.label)" } == [
                "write 4096 -1 /data/db.sqlite",
                "fsync 0 -1 /data/db.sqlite",
                "truncate 0 0 cache/blob.bin",
                "write 3 -1 cache/blob.bin",
                "truncate 0 0 /data/new.txt",
                "truncate 0 8192 /data/db.sqlite",
                "truncate 0 0 /data/other.txt",
                // openat relative to descriptor 3 (a file here, which the kernel would refuse;
                // the name is joined all the same).
                "read 1 -1 /data/db.sqlite/journal",
            ])
    }

    @Test func devicesPipesAndUnknownDescriptorsMakeNoEvents() throws {
        let input = try importStrace([
            #"9  1700000000.000000 write(1</dev/pts/0<char 136:0>>, "hi\n", 3) = 3 <0.000020>"#,
            #"9  1700000000.001000 write(6</dev/null<char 1:3>>, "x", 1) = 1 <0.000020>"#,
            #"9  1700000000.002000 read(7<pipe:[4242]>, "x", 1) = 1 <0.000020>"#,
            #"9  1700000000.003000 openat(AT_FDCWD, "/proc/self/status", O_RDONLY) = 3 <0.000020>"#,
            #"9  1700000000.004000 read(3, "Name:\tx\n", 1024) = 8 <0.000020>"#,
            #"9  1700000000.005000 pipe2([4, 5], O_CLOEXEC) = 0 <0.000020>"#,
            #"9  1700000000.006000 write(5, "x", 1) = 1 <0.000020>"#,
            #"9  1700000000.007000 sendto(8<UNIX-STREAM:[63064->63065]>, "x", 1, 0, NULL, 0) = 1 <0.000020>"#,
            #"9  1700000000.008000 write(1, "out\n", 4) = 4 <0.000020>"#,
            #"9  1700000000.009000 write(2, "err\n", 4) = 4 <0.000020>"#,
        ])
        #expect(input.timeline.isEmpty)
        let unknown = try #require(input.diagnostic("unknown-descriptor"))
        #expect(unknown.count == 2)
        #expect(unknown.severity == .info)
        #expect(unknown.location == "line 9")
        #expect(unknown.message.contains(#"descriptor "1""#))
    }

    // MARK: Network

    @Test func socketsNamedByYYAreNetEvents() throws {
        let input = try importStrace([
            #"9  1700000000.000000 sendto(5<TCP:[10.0.0.2:5000->1.2.3.4:443]>, "\26\3\1", 517, MSG_NOSIGNAL, NULL, 0) = 517 <0.000050>"#,
            #"9  1700000000.100000 recvfrom(5<TCP:[10.0.0.2:5000->1.2.3.4:443]>, "\26\3\3", 16384, 0, NULL, NULL) = 4000 <0.000010>"#,
            #"9  1700000000.200000 write(6<TCPv6:[[2001:db8::2]:40000->[2001:db8::1]:80]>, "GET / HTTP/1.1\r\n\r\n", 18) = 18 <0.000010>"#,
            #"9  1700000000.300000 read(7<TCP:[127.0.0.1:54052->127.0.0.1:8765]>, "HTTP/1.0 200 OK\r\n", 102400) = 216 <0.000010>"#,
            #"9  1700000000.400000 sendmsg(8<UDP:[10.0.0.2:5353->224.0.0.251:5353]>, {msg_name=NULL, msg_iov=[{iov_base="\0", iov_len=40}], msg_iovlen=1}, 0) = 40 <0.000010>"#,
        ])
        let net = input.events(.net)
        #expect(net.map(\.code) == [NetDirection.tx, .rx, .tx, .rx, .tx].map(\.rawValue))
        #expect(net.map(\.amount) == [517, 4000, 18, 216, 40])
        #expect(net.map(\.label) == ["1.2.3.4", "1.2.3.4", "2001:db8::1", "127.0.0.1", "224.0.0.251"])
        #expect(
            net.map(\.label2) == [
                "tcp 10.0.0.2:5000 → 1.2.3.4:443", "tcp 10.0.0.2:5000 → 1.2.3.4:443",
                "tcp [2001:db8::2]:40000 → [2001:db8::1]:80", "tcp 127.0.0.1:54052 → 127.0.0.1:8765",
                "udp 10.0.0.2:5353 → 224.0.0.251:5353",
            ])
        #expect(net.map(\.code2) == [LinkKind.unspecified, .unspecified, .unspecified, .loopback, .unspecified].map(\.rawValue))
    }

    @Test func socketsFollowedFromSocketAndConnectWithoutYY() throws {
        let input = try importStrace([
            #"9  1700000000.000000 socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 5 <0.000050>"#,
            #"9  1700000000.001000 connect(5, {sa_family=AF_INET, sin_port=htons(8765), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress) <0.000170>"#,
            #"9  1700000000.002000 sendto(5, "GET /ping.json HTTP/1.1\r\n\r\n", 87, MSG_NOSIGNAL, NULL, 0) = 87 <0.000055>"#,
            #"9  1700000000.003000 getsockname(5, {sa_family=AF_INET, sin_port=htons(54052), sin_addr=inet_addr("127.0.0.1")}, [128 => 16]) = 0 <0.000010>"#,
            #"9  1700000000.004000 recvfrom(5, "HTTP/1.0 200 OK\r\n", 102400, 0, NULL, NULL) = 216 <0.000010>"#,
            #"9  1700000000.005000 socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP) = 6 <0.000050>"#,
            #"9  1700000000.006000 connect(6, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2606:2800:220:1::1", &sin6_addr), sin6_scope_id=0}, 28) = 0 <0.030000>"#,
            #"9  1700000000.040000 write(6, "\26\3\1", 300) = 300 <0.000010>"#,
            #"9  1700000000.050000 socket(AF_INET, SOCK_DGRAM|SOCK_NONBLOCK, IPPROTO_IP) = 7 <0.000010>"#,
            #"9  1700000000.051000 sendto(7, "\253\315\1\0", 40, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("192.168.1.1")}, 16) = 40 <0.000020>"#,
        ])
        let net = input.events(.net)
        #expect(net.map(\.amount) == [87, 216, 300, 40])
        #expect(net.map(\.label) == ["127.0.0.1", "127.0.0.1", "2606:2800:220:1::1", "192.168.1.1"])
        #expect(
            net.map(\.label2) == [
                // Before getsockname the trace does not know this side's port.
                "tcp pid 9 fd 5 → 127.0.0.1:8765",
                "tcp 127.0.0.1:54052 → 127.0.0.1:8765",
                "tcp pid 9 fd 6 → [2606:2800:220:1::1]:443",
                "udp pid 9 fd 7 → 192.168.1.1:53",
            ])
        #expect(net.map(\.code2) == [LinkKind.loopback, .loopback, .unspecified, .unspecified].map(\.rawValue))
    }

    @Test func acceptedConnectionsOfAServer() throws {
        let input = try importStrace([
            #"20  1700000000.000000 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 3 <0.000010>"#,
            #"20  1700000000.001000 bind(3, {sa_family=AF_INET, sin_port=htons(8765), sin_addr=inet_addr("127.0.0.1")}, 16) = 0 <0.000010>"#,
            #"20  1700000000.002000 listen(3, 5) = 0 <0.000010>"#,
            #"20  1700000000.003000 accept4(3, {sa_family=AF_INET, sin_port=htons(54052), sin_addr=inet_addr("127.0.0.1")}, [16], SOCK_CLOEXEC) = 4 <0.000010>"#,
            #"20  1700000000.004000 recvfrom(4, "GET / HTTP/1.1\r\n", 8192, 0, NULL, NULL) = 87 <0.000010>"#,
            #"20  1700000000.005000 sendto(4, "HTTP/1.0 200 OK\r\n", 216, 0, NULL, 0) = 216 <0.000010>"#,
            #"20  1700000000.006000 close(4) = 0 <0.000010>"#,
            // The number is reused for a file: the old socket is gone.
            #"20  1700000000.007000 openat(AT_FDCWD, "/srv/www/index.html", O_RDONLY|O_CLOEXEC) = 4 <0.000010>"#,
            #"20  1700000000.008000 read(4, "<html>", 4096) = 6 <0.000010>"#,
        ])
        #expect(input.events(.net).map(\.label2) == ["tcp 127.0.0.1:8765 → 127.0.0.1:54052", "tcp 127.0.0.1:8765 → 127.0.0.1:54052"])
        #expect(input.events(.net).map(\.code) == [NetDirection.rx.rawValue, NetDirection.tx.rawValue])
        #expect(input.events(.disk).map(\.label) == ["/srv/www/index.html"])
        let unmapped = try #require(input.diagnostic("unmapped-syscall"))
        #expect(unmapped.count == 1)
        #expect(unmapped.message.contains("listen ×1"))
    }

    // MARK: Processes and descriptors

    @Test func threadsShareDescriptorsForksCopyThemAndExecDropsCloseOnExec() throws {
        let input = try importStrace([
            #"30  1700000000.000000 openat(AT_FDCWD, "/data/a.log", O_WRONLY|O_APPEND) = 3 <0.000010>"#,
            #"30  1700000000.001000 openat(AT_FDCWD, "/data/b.log", O_WRONLY|O_APPEND|O_CLOEXEC) = 4 <0.000010>"#,
            #"30  1700000000.002000 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0, stack=0x7f00, stack_size=0x7fff00}, 88) = 31 <0.000050>"#,
            #"31  1700000000.003000 openat(AT_FDCWD, "/data/c.log", O_WRONLY) = 5 <0.000010>"#,
            // The parent writes to the file its thread opened.
            #"30  1700000000.004000 write(5, "c", 1) = 1 <0.000010>"#,
            #"30  1700000000.005000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 32 <0.000100>"#,
            // The fork's own opens are not its parent's.
            #"32  1700000000.006000 dup2(3, 7) = 7 <0.000010>"#,
            #"30  1700000000.007000 write(7, "x", 1) = 1 <0.000010>"#,
            #"32  1700000000.008000 write(7, "a", 1) = 1 <0.000010>"#,
            #"32  1700000000.009000 execve("/usr/bin/tool", ["tool"], 0x7ffc /* 4 vars */) = 0 <0.000200>"#,
            #"32  1700000000.010000 write(3, "a", 1) = 1 <0.000010>"#,
            #"32  1700000000.011000 write(4, "b", 1) = 1 <0.000010>"#,
            #"32  1700000000.012000 +++ exited with 0 +++"#,
        ])
        #expect(input.events(.disk).map { "\($0.thread) \($0.label)" } == ["30 /data/c.log", "32 /data/a.log", "32 /data/a.log"])
        #expect(input.diagnostic("unknown-descriptor")?.count == 2)
        #expect(input.info.process == "tool")
    }

    @Test func descriptorsDuplicatedClosedInRangesAndClosedOnExec() throws {
        let input = try importStrace([
            #"9  1700000000.000000 openat(AT_FDCWD, "/data/a", O_WRONLY) = 3 <0.000010>"#,
            #"9  1700000000.001000 fcntl(3, F_DUPFD_CLOEXEC, 10) = 10 <0.000010>"#,
            #"9  1700000000.002000 write(10, "x", 1) = 1 <0.000010>"#,
            #"9  1700000000.003000 dup(3) = 4 <0.000010>"#,
            #"9  1700000000.004000 close_range(3, ~0U, 0) = 0 <0.000010>"#,
            #"9  1700000000.005000 write(4, "x", 1) = 1 <0.000010>"#,
            // -y names the directory of AT_FDCWD; -yy also the file opened, which wins.
            #"9  1700000000.006000 openat(AT_FDCWD</srv/demo>, "rel/b.txt", O_WRONLY) = 5 <0.000010>"#,
            #"9  1700000000.007000 write(5, "y", 1) = 1 <0.000010>"#,
            #"9  1700000000.008000 openat(AT_FDCWD</srv/demo>, "c.txt", O_RDONLY) = 6</srv/demo/real/c.txt> <0.000010>"#,
            #"9  1700000000.009000 read(6, "z", 1) = 1 <0.000010>"#,
            #"9  1700000000.010000 fcntl(6, F_SETFD, FD_CLOEXEC) = 0 <0.000010>"#,
            #"9  1700000000.011000 execve("/bin/true", ["true"], 0x7ffc /* 1 var */) = 0 <0.000100>"#,
            #"9  1700000000.012000 read(6, "z", 1) = 1 <0.000010>"#,
            #"9  1700000000.013000 write(5, "y", 1) = 1 <0.000010>"#,
        ])
        #expect(input.events(.disk).map(\.label) == ["/data/a", "/srv/demo/rel/b.txt", "/srv/demo/real/c.txt", "/srv/demo/rel/b.txt"])
        #expect(input.diagnostic("unknown-descriptor")?.count == 2)
    }

    @Test func signalsAreWakeups() throws {
        let input = try importStrace([
            #"40  1700000000.000000 wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 41 <0.204174>"#,
            #"40  1700000000.204500 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=41, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---"#,
            #"40  1700000000.300000 --- stopped by SIGSTOP ---"#,
            #"40  1700000000.400000 +++ killed by SIGTERM +++"#,
        ])
        #expect(
            input.events == [
                StraceEvent(
                    time: us(204_500), kind: .wakeup, thread: "40", code: 0, code2: 0, amount: 0, amount2: -1, duration: 0,
                    label: "signal", label2: "SIGCHLD")
            ])
        #expect(input.timeline.end == ms(400))
    }
}
