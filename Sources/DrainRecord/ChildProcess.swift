#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import CRecordSupport

/// The recorded command, started with `posix_spawnp`: it inherits the recorder's standard
/// input, output and error unchanged, an empty signal mask and default signal actions.
struct ChildProcess {
    let pid: Int32

    /// Starts `arguments[0]` (searched on `PATH`) with `arguments`.
    ///
    /// - Throws: `RecordError.commandNotFound` (127) or `.commandNotExecutable` (126) when
    ///   the program cannot be started.
    static func spawn(_ arguments: [String]) throws(RecordError) -> ChildProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The recorder blocks SIGCHLD, SIGINT and SIGTERM to wait for them; the command must
        // start with nothing blocked and the default actions.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in SignalGate.handled { sigaddset(&defaults, signal) }
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, environ)
        switch result {
        case 0: return ChildProcess(pid: pid)
        case ENOENT: throw .commandNotFound(arguments[0])
        default: throw .commandNotExecutable(arguments[0], reason: RecordError.reason(result))
        }
    }

    /// Whether the child has exited, without reaping it: its `/proc` files stay readable for
    /// the last sample.
    func hasExited() -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
        return info._sifields._sigchld.si_pid == pid
    }

    /// Waits for the child and returns its exit status as a shell reports it: the status it
    /// exited with, or 128 + the signal that killed it.
    func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return 128 + SIGKILL }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Reaps a zombie whose parent is the recorder: a descendant that was re-parented to
    /// the recorder (a child subreaper) after its own parent exited.
    static func reapOrphan(_ pid: Int32) {
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG)
    }

    /// Makes the recorder the child subreaper of the command's tree, so orphaned
    /// descendants stay in the tree (docs/recorder.md).
    static func becomeSubreaper() {
        _ = drain_record_become_subreaper()
    }
}
#endif
