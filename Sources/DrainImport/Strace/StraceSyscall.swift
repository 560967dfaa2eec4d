/// The system calls the strace importer reads: those that become events, and those that
/// tell it what a file descriptor refers to. Every other call is counted, not read.
enum StraceSyscall: UInt8 {
    // Waiting: `poll` events on timeout, `wakeup` events when something is ready.
    case poll, ppoll, select, pselect6, epollWait, epollPwait, epollPwait2
    // Sleeping: `poll` events with source "sleep".
    case nanosleep, clockNanosleep
    // Data: `disk` or `net` events, by what the descriptor refers to.
    case read, pread, readv, preadv, write, pwrite, writev, pwritev
    case send, sendto, sendmsg, recv, recvfrom, recvmsg, sendfile
    // Files: `disk` fsync and truncate events.
    case fsync, fdatasync, truncate, ftruncate
    // Descriptors: opened, connected, duplicated, closed.
    case open, openat, openat2, creat
    case socket, connect, accept, accept4, bind, getsockname, getpeername
    case close, closeRange, dup, dup2, dup3, fcntl
    case pipe, socketpair, otherDescriptor
    // Processes: descriptor tables shared or copied, close-on-exec, the process name.
    case clone, fork, execve

    /// Names as strace prints them, with the aliases some architectures use.
    static let table = NameTable([
        ("poll", poll.rawValue), ("ppoll", ppoll.rawValue), ("select", select.rawValue),
        ("_newselect", select.rawValue), ("pselect6", pselect6.rawValue), ("epoll_wait", epollWait.rawValue),
        ("epoll_pwait", epollPwait.rawValue), ("epoll_pwait2", epollPwait2.rawValue),
        ("nanosleep", nanosleep.rawValue), ("clock_nanosleep", clockNanosleep.rawValue),
        ("clock_nanosleep_time64", clockNanosleep.rawValue),
        ("read", read.rawValue), ("pread64", pread.rawValue), ("readv", readv.rawValue), ("preadv", preadv.rawValue),
        ("preadv2", preadv.rawValue), ("write", write.rawValue), ("pwrite64", pwrite.rawValue),
        ("writev", writev.rawValue), ("pwritev", pwritev.rawValue), ("pwritev2", pwritev.rawValue),
        ("send", send.rawValue), ("sendto", sendto.rawValue), ("sendmsg", sendmsg.rawValue), ("recv", recv.rawValue),
        ("recvfrom", recvfrom.rawValue), ("recvmsg", recvmsg.rawValue), ("sendfile", sendfile.rawValue),
        ("sendfile64", sendfile.rawValue),
        ("fsync", fsync.rawValue), ("fdatasync", fdatasync.rawValue), ("truncate", truncate.rawValue),
        ("truncate64", truncate.rawValue), ("ftruncate", ftruncate.rawValue), ("ftruncate64", ftruncate.rawValue),
        ("open", open.rawValue), ("openat", openat.rawValue), ("openat2", openat2.rawValue), ("creat", creat.rawValue),
        ("socket", socket.rawValue), ("connect", connect.rawValue), ("accept", accept.rawValue),
        ("accept4", accept4.rawValue), ("bind", bind.rawValue), ("getsockname", getsockname.rawValue),
        ("getpeername", getpeername.rawValue),
        ("close", close.rawValue), ("close_range", closeRange.rawValue), ("dup", dup.rawValue), ("dup2", dup2.rawValue),
        ("dup3", dup3.rawValue), ("fcntl", fcntl.rawValue), ("fcntl64", fcntl.rawValue),
        ("pipe", pipe.rawValue), ("pipe2", pipe.rawValue), ("socketpair", socketpair.rawValue),
        ("eventfd", otherDescriptor.rawValue), ("eventfd2", otherDescriptor.rawValue),
        ("epoll_create", otherDescriptor.rawValue), ("epoll_create1", otherDescriptor.rawValue),
        ("timerfd_create", otherDescriptor.rawValue), ("signalfd", otherDescriptor.rawValue),
        ("signalfd4", otherDescriptor.rawValue), ("inotify_init", otherDescriptor.rawValue),
        ("inotify_init1", otherDescriptor.rawValue), ("memfd_create", otherDescriptor.rawValue),
        ("userfaultfd", otherDescriptor.rawValue), ("pidfd_open", otherDescriptor.rawValue),
        ("fanotify_init", otherDescriptor.rawValue), ("perf_event_open", otherDescriptor.rawValue),
        ("io_uring_setup", otherDescriptor.rawValue),
        ("clone", clone.rawValue), ("clone3", clone.rawValue), ("fork", fork.rawValue), ("vfork", fork.rawValue),
        ("execve", execve.rawValue), ("execveat", execve.rawValue),
    ])

    /// The call named by `name` (followed by readable padding), or nil for calls not read.
    @inline(__always)
    static func named(_ name: UnsafeRawBufferPointer) -> StraceSyscall? {
        table.code(ofPadded: name).flatMap(StraceSyscall.init(rawValue:))
    }

    /// Whether a transfer call reads (receives) rather than writes (sends).
    var readsData: Bool {
        switch self {
        case .read, .pread, .readv, .preadv, .recv, .recvfrom, .recvmsg: true
        default: false
        }
    }
}
