import Glibc

/// The Wayland socket of the processes Strata starts: a second listening socket beside the public
/// one, whose every connection is a `.startedByStrata` client (privileged: `ClientPrivilege`).
///
/// Only the environment Strata gives the processes it starts (the command after `--`,
/// `strata-ctl exec`, `strata-run`) names it, in `WAYLAND_DISPLAY`; so every Wayland client of
/// such a process tree, however deep and however many, connects on a connection of its own and
/// is privileged, and nothing else is told where it is. Its name is the public socket's with 64
/// random bits (`wayland-1-a1b2c3d4e5f60718`), in `XDG_RUNTIME_DIR`, mode 0600, and only the
/// user's own connections are accepted (`SO_PEERCRED`). It is not a boundary against the user's
/// own processes, which can find it by listing the directory (or ptrace the command): the public
/// socket and sandboxes are what it keeps out (`docs/reliability.md`, "Trust model").
public final class PrivilegedSocket {
    /// The socket's name in XDG_RUNTIME_DIR, for `WAYLAND_DISPLAY`.
    public let name: String
    /// Its full path.
    public let path: String
    /// Connections accepted so far.
    public private(set) var accepted = 0
    /// Connections refused (another user's, or a client the display could not make).
    public private(set) var refused = 0
    private let display: Display
    private var fd: Int32
    private var source: EventSource?

    /// At most this many connections are accepted per wakeup of the loop (the rest wait for the
    /// next), so a flood of connects cannot hold the loop.
    public static let maxAcceptsPerWakeup = 16

    /// Listens on a new socket named after `publicName` in `runtimeDirectory`.
    public init(display: Display, runtimeDirectory: String, publicName: String) throws(ServerError) {
        display.assertOnLoop()
        self.display = display
        var generator = SystemRandomNumberGenerator()
        var lastFailure = ""
        // A name taken already (64 random bits: practically never) gets another draw.
        for _ in 0..<4 {
            let suffix = String(generator.next() as UInt64, radix: 16)
            let name = "\(publicName)-\(String(repeating: "0", count: 16 - suffix.count))\(suffix)"
            let path = runtimeDirectory.hasSuffix("/") ? runtimeDirectory + name : runtimeDirectory + "/" + name
            guard access(path, F_OK) != 0 else { continue }
            let listening: Int32
            do {
                listening = try UnixSocket.listen(path: path)
            } catch {
                lastFailure = error.description
                continue
            }
            self.name = name
            self.path = path
            self.fd = listening
            guard
                let source = EventSource(
                    display: display, fd: listening, events: .readable,
                    handler: { [weak self] _ in
                        self?.acceptConnections()
                    })
            else {
                // Whether or not deinit runs for an initializer that throws once every property
                // is set, it must find nothing left to close.
                self.fd = -1
                Descriptors.close(listening)
                unlink(path)
                throw .setup("cannot watch the privileged socket \(path) on the event loop")
            }
            self.source = source
            return
        }
        throw .setup(
            "cannot open a privileged Wayland socket in \(runtimeDirectory): \(lastFailure.isEmpty ? "every name drawn was taken" : lastFailure)"
        )
    }

    deinit { close() }

    private func acceptConnections() {
        let uid = getuid()
        for _ in 0..<Self.maxAcceptsPerWakeup {
            guard fd >= 0, let connection = UnixSocket.accept(fd) else { return }
            // libwayland expects a blocking-mode socket it makes non-blocking itself; either works.
            guard let peer = UnixSocket.peerCredentials(connection), peer.uid == uid,
                display.createClient(fd: connection, origin: .startedByStrata) != nil
            else {
                Descriptors.close(connection)
                refused += 1
                continue
            }
            accepted += 1
        }
    }

    /// Stops listening, closes the socket and removes its file; safe to call twice. The clients
    /// that connected stay.
    public func close() {
        source?.remove()
        source = nil
        guard fd >= 0 else { return }
        Descriptors.close(fd)
        fd = -1
        unlink(path)
    }
}
