import CAtspi
import Glibc

/// The accessibility bus of one Strata (`strata --accessibility`) and the applications
/// registered on it: the root of every search. libatspi finds the AT-SPI bus through the session
/// bus it is given, never through the environment's or an X display's: the process's
/// `DBUS_SESSION_BUS_ADDRESS` is set to Strata's bus, and `AT_SPI_BUS_ADDRESS` and `DISPLAY` are
/// removed, before libatspi starts (once a process: libatspi keeps its connection).
public final class AccessibleDesktop {
    /// Why the bus cannot be read, in words.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let root: AccessibleNode

    /// Connects to the AT-SPI bus that `sessionBus` (a D-Bus address) leads to; each call to a
    /// client waits at most `timeoutMilliseconds`.
    public init(sessionBus: String, timeoutMilliseconds: Int32 = 1500) throws(Failure) {
        guard !sessionBus.isEmpty else {
            throw Failure(description: "this Strata has no accessibility bus: start it with --accessibility")
        }
        setenv("DBUS_SESSION_BUS_ADDRESS", sessionBus, 1)
        unsetenv("AT_SPI_BUS_ADDRESS")
        unsetenv("DISPLAY")
        // 0: started now; 1: already started (both fine); anything else: no bus.
        let status = atspi_init()
        guard status == 0 || status == 1 else {
            throw Failure(description: "cannot reach the accessibility bus of \(sessionBus)")
        }
        atspi_set_timeout(timeoutMilliseconds, timeoutMilliseconds)
        guard let desktop = atspi_get_desktop(0) else {
            throw Failure(
                description: "the accessibility bus of \(sessionBus) has no desktop (is the AT-SPI registry installed?)"
            )
        }
        root = AccessibleNode(adopting: desktop)
    }

    /// The registered applications (at most `limit`), each with its process and toplevels.
    public func applications(limit: Int = 256) -> [AccessibleNode] {
        (0..<min(root.childCount, limit)).compactMap { root.child(at: $0) }
    }
}
