import Glibc

/// The signals the compositor's event loop handles through `wl_event_loop_add_signal`
/// (a signalfd): they must be blocked in every thread, and reset for child processes.
enum HandledSignals {
    static let numbers: [Int32] = [SIGCHLD, SIGINT, SIGTERM]

    /// Blocks the handled signals in the calling thread (and the threads it starts later), and
    /// resets dispositions a parent may have set to "ignore" (a shell's `strata &` ignores
    /// SIGINT), so they reach the loop's signalfd.
    static func block() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        sigprocmask(SIG_BLOCK, &set, nil)
        for number in numbers { signal(number, SIG_DFL) }
    }
}
