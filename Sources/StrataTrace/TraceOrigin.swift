/// Which process tree a control request, a Wayland client or a window came from, as the
/// recorder found it by walking the process's parents in /proc when the connection or window
/// appeared (`origin` on `command`, `client connect` and windowDidOpen `event` lines). The
/// replay chooses its driver from these (`ReplayDriver`, docs/experiments.md, "Replay and diff").
public enum TraceOrigin: String, Sendable, CaseIterable {
    /// The command Strata was started with (`strata -- command`), or one of its descendants.
    case command
    /// A process started by `exec` (the control command), or one of its descendants.
    case exec
    /// Neither: a process started elsewhere (a terminal, a test harness).
    case outside
    /// The recorder could not tell: no pid, the process was gone, or its chain of parents was
    /// longer than the recorder walks.
    case unknown
    /// Strata itself (the connection it made for Xwayland).
    case strata
}
