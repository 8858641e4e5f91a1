import Glibc

/// A child's end as a shell reports it: its exit code, or 128 + the signal that ended it.
public enum ExitStatus {
    /// Decodes a `waitpid` status (`WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` are macros Swift
    /// cannot import).
    public static func shell(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// A shell status in words: "exited with status N", or "was killed by signal N" (128 + N).
    public static func describe(_ shellStatus: Int32) -> String {
        shellStatus > 128 ? "was killed by signal \(shellStatus - 128)" : "exited with status \(shellStatus)"
    }

    /// Reaps `pid` if it has ended, without waiting: its shell status, or nil while it runs.
    /// A child someone else reaped (ECHILD) reads as 1: its status is lost.
    public static func reap(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { return shell(status) }
        if result < 0, errno == ECHILD { return 1 }
        return nil
    }

    /// Waits for `pid` to end (retrying on EINTR): its shell status, or 1 when it cannot be
    /// waited for. Only for a child that has been told to end, or outside the event loop.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, 0)
            if result == pid { return shell(status) }
            if result < 0, errno == EINTR { continue }
            return 1
        }
    }
}
