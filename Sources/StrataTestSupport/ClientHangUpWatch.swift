import StrataServer

/// Watches the server's side of a test client (its `wl_client`'s destroy signal), so a client
/// the test releases can wait until the server has seen it go.
///
/// The server sees a hang-up only once every copy of the client's socket is closed, and the
/// posix_spawn child of another test thread holds a copy of every descriptor until its exec:
/// under load the hang-up can come many steps after the close. A test that checks what a
/// disconnect does must not count on a fixed number of steps.
final class ClientHangUpWatch {
    private final class Flag { var isSet = false }
    private let flag = Flag()
    private let listener: Listener?

    /// Starts watching `serverClient`, which must be alive now.
    init(_ serverClient: OpaquePointer) {
        let flag = flag
        listener = Listener { _ in flag.isSet = true }
        listener?.listen(toClientDestroy: serverClient)
    }

    /// True once the server destroyed the client (its hang-up seen, a protocol error, or the
    /// display's end).
    var isGone: Bool { flag.isSet }

    /// Steps `server` until the client is gone, `seconds` at most; returns whether it went.
    @discardableResult
    func wait(stepping server: TestServer, seconds: Double = 10) -> Bool {
        guard listener != nil else { return false }
        let flag = flag
        return server.run(seconds: seconds) { flag.isSet }
    }
}
