/// Why Xwayland could not be offered or started (printed by `strata` on stderr; Strata carries
/// on without X clients).
public enum XwaylandError: Error, Equatable, CustomStringConvertible {
    /// Every display number `XDisplaySockets.candidates` holds has a live lock file or a socket in use.
    case noFreeDisplay
    /// The display number asked for (`--x-display`) is in use (a live lock file or a socket).
    case displayTaken(Int)
    /// The executable could not be started (not found, not executable): its name and errno's text.
    case cannotStart(String, String)
    /// A pipe, socket pair or pidfd could not be made.
    case setup(String)

    public var description: String {
        switch self {
        case .noFreeDisplay:
            return
                "no free X display number (:\(XDisplaySockets.candidates.lowerBound) to :\(XDisplaySockets.candidates.upperBound - 1) are taken)"
        case .displayTaken(let number):
            return
                "X display :\(number) is in use (its lock file /tmp/.X\(number)-lock names a running process, or its socket is taken)"
        case .cannotStart(let name, let reason): return "cannot start \(name): \(reason)"
        case .setup(let reason): return reason
        }
    }
}
