import Glibc

/// The open-file limit. Every client is a socket: a soft limit of 1,024 (the usual default)
/// would refuse the thousandth client's connection, so Strata raises its soft limit to the hard
/// limit at start; the children it starts get the original soft limit back (programs using
/// select() cannot use descriptors past 1,023).
enum FileLimit {
    /// The soft limit Strata was started with (nil until `raise()`).
    nonisolated(unsafe) private(set) static var original: rlimit?

    /// Raises the soft limit to the hard one; returns the new soft limit (nil when unchanged).
    @discardableResult
    static func raise() -> rlim_t? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        original = limit
        guard limit.rlim_cur < limit.rlim_max else { return nil }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return nil }
        return raised.rlim_cur
    }

    /// Gives a started child the original soft limit back.
    static func restore(in pid: pid_t) {
        guard var limit = original, let prlimit else { return }
        _ = prlimit(pid, Int32(RLIMIT_NOFILE.rawValue), &limit, nil)
    }

    /// glibc's `prlimit` (a GNU extension the Glibc module does not import); looked up at run time.
    private typealias Prlimit =
        @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32
    private static let prlimit: Prlimit? = {
        guard let symbol = dlsym(nil, "prlimit") else { return nil }
        return unsafeBitCast(symbol, to: Prlimit.self)
    }()
}
