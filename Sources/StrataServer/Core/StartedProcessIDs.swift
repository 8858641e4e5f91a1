import CWaylandServer
import Glibc
import Synchronization

/// The process behind each connection Strata made for a process it started (`WAYLAND_SOCKET`).
///
/// Such a connection is one end of a socket pair Strata created before the fork, so the kernel's
/// peer credentials (`SO_PEERCRED`, what `wl_client_get_credentials` reports) name Strata itself.
/// The starter records the child's pid here once it exists; the entry goes in the client's
/// destroy path. Shared by every display of the process (tests and WLCS run several) behind a lock.
enum StartedProcessIDs {
    private static let table = Mutex<[OpaquePointer: pid_t]>([:])

    static func set(_ pid: pid_t, for client: OpaquePointer) {
        table.withLock { $0[client] = pid }
    }

    static func remove(_ client: OpaquePointer) {
        _ = table.withLock { $0.removeValue(forKey: client) }
    }

    static func pid(of client: OpaquePointer) -> pid_t? {
        table.withLock { $0[client] }
    }

    /// The process behind `client`: the recorded child for a connection Strata made, else the
    /// socket's peer credentials.
    static func processID(of client: OpaquePointer) -> pid_t {
        if let pid = pid(of: client) { return pid }
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        return pid
    }
}
