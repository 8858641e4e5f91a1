import CWaylandServer
import Foundation

/// Who may see the privileged globals (screencopy, output management, virtual input, foreign
/// toplevels): clients Strata started (its own process and its descendants: `strata -- cmd`,
/// `strata-ctl exec`, and whatever those start), or every client with `--allow-privileged`.
public enum ClientPrivilege: Equatable, Sendable {
    case startedByStrata
    case everyone
    /// No client (tests of the hiding; a locked-down session).
    case nobody

    /// Whether `client` may see and bind the privileged globals.
    public func allows(_ client: OpaquePointer) -> Bool {
        switch self {
        case .everyone: return true
        case .nobody: return false
        case .startedByStrata:
            var pid: pid_t = 0
            wl_client_get_credentials(client, &pid, nil, nil)
            return ClientPrivilege.isStrataOrDescendant(pid)
        }
    }

    /// Walks the parent chain in /proc from `pid` up to init, looking for Strata's own pid.
    static func isStrataOrDescendant(_ pid: pid_t) -> Bool {
        let me = getpid()
        var current = pid
        for _ in 0..<64 {
            if current == me { return true }
            guard current > 1, let parent = parentPID(of: current) else { return false }
            current = parent
        }
        return false
    }

    private static func parentPID(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state, ppid, …
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1 else { return nil }
        return pid_t(fields[1])
    }
}
