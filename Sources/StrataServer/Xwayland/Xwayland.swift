import CStrataServerGlue
import CWaylandServer
import CXCB
import Glibc
import StrataModel
import StrataProcess

/// Rootless Xwayland, started by Strata (`docs/xwayland.md`).
///
/// Strata owns the X display (`XDisplaySockets`: the number, the two listening sockets, the lock
/// file) from its start, and watches the sockets on the event loop. The first X client that
/// connects (or `start()`, for `--xwayland=eager`) starts `Xwayland :N -rootless -listenfd A
/// -listenfd B -wm W -displayfd D`, whose Wayland connection is a socket pair Strata made (a
/// privileged client, as `WAYLAND_SOCKET` clients). Xwayland accepts the waiting connection
/// itself. When it writes its display number on D it is ready: the window manager (`XWM`)
/// connects over W. Xwayland's process is watched through a pidfd: when it ends, its windows
/// close, a message goes to `log`, and the sockets are watched again (the next X connection
/// starts a new one). Nothing here blocks the loop but the XWM's setup round trips to a ready
/// Xwayland.
public final class Xwayland {
    unowned let compositor: Compositor
    public let sockets: XDisplaySockets
    /// The executable (a name searched in PATH, or a path); `STRATA_XWAYLAND` overrides it.
    public let executable: String
    /// Where messages go (strata: stderr).
    public var log: (String) -> Void = { _ in }

    public var displayName: String { ":\(sockets.number)" }
    /// The running Xwayland's pid, nil when none runs.
    public private(set) var pid: pid_t?
    /// The window manager, once Xwayland is ready.
    public private(set) var wm: XWM?
    /// Xwayland's Wayland client (nil when none runs).
    public private(set) var client: OpaquePointer?
    /// Tests: which clients count as Xwayland's for xwayland_shell_v1 (nil: `client` alone).
    public var shellClientForTesting: ((OpaquePointer) -> Bool)?
    /// Tests acting as an Xwayland 23+ (Debian's 22.1 sends no `WL_SURFACE_SERIAL`): the XWM takes
    /// `WL_SURFACE_SERIAL` messages a test X client sends (SendEvent), which it otherwise ignores.
    public var trustsSentSurfaceSerialsForTesting = false

    /// Whether `candidate` may bind xwayland_shell_v1: Xwayland's own client only.
    func isShellClient(_ candidate: OpaquePointer) -> Bool {
        if let shellClientForTesting { return shellClientForTesting(candidate) }
        return client == candidate
    }

    /// The AT-SPI bus's address (`strata --accessibility`), named on the X root as `AT_SPI_BUS`
    /// when the XWM starts, before X clients are let in: a desktop session's bus launcher does
    /// the same, and X toolkits (Qt 5) read it at their start.
    public var accessibilityBusAddress: String?

    /// How many times Xwayland was started (tests).
    public private(set) var starts = 0

    private var socketWatchers: [EventSource] = []
    private var pidfd: Int32 = -1
    private var processWatcher: EventSource?
    private var readyFD: Int32 = -1
    private var readyWatcher: EventSource?
    /// Bytes read from the ready pipe so far (a display number is a few digits).
    private var readyText = 0
    private var wmFD: Int32 = -1
    private var clientDestroyed: Listener?
    /// The caps of Xwayland's connection (`ClientBudget.Limits.xwayland`; tests lower them
    /// before `start`). Past half of any, the XWM disconnects the X client holding the most
    /// pixmaps (`XWM.xwaylandBudgetPassedHighWater`).
    public var budgetLimits = ClientBudget.Limits.xwayland
    /// What the budget's high-water notification holds while the client lives.
    private var budgetBox: Unmanaged<WeakXwayland>?
    private final class WeakXwayland {
        weak var xwayland: Xwayland?
        init(_ xwayland: Xwayland) { self.xwayland = xwayland }
    }
    private var isShutDown = false

    /// Takes an X display (the first free one, or `displayNumber`) and watches its sockets.
    public init(compositor: Compositor, executable: String, displayNumber: Int? = nil) throws(XwaylandError) {
        self.compositor = compositor
        self.executable = executable
        switch displayNumber.map({ XDisplaySockets.open(exactly: $0) }) ?? XDisplaySockets.open() {
        case .success(let sockets): self.sockets = sockets
        case .failure(let error): throw error
        }
        watchSockets()
    }

    /// The executable named by `STRATA_XWAYLAND`, else `Xwayland`.
    public static func executable(environment: [String: String]) -> String {
        if let name = environment["STRATA_XWAYLAND"], !name.isEmpty { return name }
        return "Xwayland"
    }

    /// Watches the listening sockets: a connection waiting starts Xwayland.
    private func watchSockets() {
        guard socketWatchers.isEmpty, !isShutDown else { return }
        for fd in [sockets.unixFD, sockets.abstractFD] {
            if let watcher = EventSource(
                display: compositor.display, fd: fd,
                handler: { [unowned self] _ in
                    self.connectionWaiting()
                })
            {
                socketWatchers.append(watcher)
            }
        }
    }

    private func connectionWaiting() {
        guard pid == nil else { return }
        switch start() {
        case .success:
            break
        case .failure(let error):
            log(
                "strata: Xwayland: \(error); X clients cannot connect to \(displayName) (Wayland clients are not affected)"
            )
            refuseWaitingConnections()
        }
    }

    /// Accepts and closes the connections waiting on the sockets (no Xwayland could take them):
    /// their clients see the display close instead of waiting forever.
    private func refuseWaitingConnections() {
        for fd in [sockets.unixFD, sockets.abstractFD] {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            while true {
                let connection = accept(fd, nil, nil)
                if connection < 0 { break }
                close(connection)
            }
            _ = fcntl(fd, F_SETFL, flags)
        }
    }

    /// Starts Xwayland now (`--xwayland=eager`, or the first X connection). A running one is kept.
    @discardableResult
    public func start() -> Result<Void, XwaylandError> {
        guard pid == nil else { return .success(()) }
        guard !isShutDown else { return .failure(.setup("Xwayland was shut down")) }
        var wmPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &wmPair) == 0 else {
            return .failure(.setup("socketpair failed: \(String(cString: strerror(errno)))"))
        }
        var readyPipe: [Int32] = [-1, -1]
        guard strata_pipe_cloexec(&readyPipe) == 0 else {
            close(wmPair[0]); close(wmPair[1])
            return .failure(.setup("pipe failed: \(String(cString: strerror(errno)))"))
        }
        let connection: (client: OpaquePointer, fd: Int32)
        do {
            connection = try compositor.display.createClientSocket(origin: .startedByStrata)
        } catch {
            close(wmPair[0]); close(wmPair[1]); close(readyPipe[0]); close(readyPipe[1])
            return .failure(.setup("\(error)"))
        }
        let arguments = [
            executable, displayName, "-rootless", "-noreset",
            "-listenfd", String(sockets.unixFD), "-listenfd", String(sockets.abstractFD),
            "-wm", String(wmPair[1]), "-displayfd", String(readyPipe[1]),
        ]
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let line = String(cString: pointer)
            if let equals = line.firstIndex(of: "=") {
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            entry += 1
        }
        environment["DISPLAY"] = nil
        environment["WAYLAND_SOCKET"] = String(connection.fd)
        let inherited = [sockets.unixFD, sockets.abstractFD, wmPair[1], readyPipe[1], connection.fd]
        var launch = ProcessLaunch(arguments, environment: environment)
        launch.inheritedDescriptors = inherited
        let spawned = Result { () throws(ProcessLaunchError) in try launch.spawn() }
        close(wmPair[1]); close(readyPipe[1]); close(connection.fd)
        let child: pid_t
        switch spawned {
        case .success(let pid): child = pid
        case .failure(let error):
            close(wmPair[0]); close(readyPipe[0])
            wl_client_destroy(connection.client)
            return .failure(.cannotStart(executable, error.reason))
        }
        starts += 1
        pid = child
        client = connection.client
        compositor.display.setProcessID(child, of: connection.client)
        if let budget = ClientBudget.of(connection.client) {
            let box = Unmanaged.passRetained(WeakXwayland(self))
            budgetBox = box
            budget.setLimits(
                budgetLimits,
                notify: { data in
                    guard let data else { return }
                    Unmanaged<WeakXwayland>.fromOpaque(data).takeUnretainedValue().xwayland?.wm?
                        .xwaylandBudgetPassedHighWater()
                }, data: box.toOpaque())
        }
        clientDestroyed = Listener { [weak self] _ in self?.clientDidDestroy() }
        clientDestroyed?.listen(toClientDestroy: connection.client)
        wmFD = wmPair[0]
        readyFD = readyPipe[0]
        for watcher in socketWatchers { watcher.remove() }
        socketWatchers.removeAll()
        readyWatcher = EventSource(display: compositor.display, fd: readyFD) { [unowned self] _ in
            self.readyFDDidChange()
        }
        pidfd = strata_pidfd_open(child)
        if pidfd >= 0 {
            processWatcher = EventSource(display: compositor.display, fd: pidfd) { [unowned self] _ in
                self.processDidEnd()
            }
        }
        return .success(())
    }

    /// Xwayland writes its display number and a newline on the -displayfd pipe when it is ready
    /// (possibly in several writes: the pipe stays open until the newline), or closes the pipe
    /// without one (it failed; its end is reported by the pidfd).
    private func readyFDDidChange() {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = read(readyFD, &bytes, bytes.count)
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        let ready = count > 0 && bytes[0..<count].contains(UInt8(ascii: "\n"))
        readyText += count > 0 ? count : 0
        guard ready || count <= 0 || readyText > 64 else { return }
        readyWatcher?.remove()
        readyWatcher = nil
        close(readyFD)
        readyFD = -1
        readyText = 0
        guard ready else { return }
        let fd = wmFD
        wmFD = -1
        switch XWM.connect(fd: fd, xwayland: self) {
        case .success(let wm):
            self.wm = wm
        case .failure(let error):
            log("strata: Xwayland: the window manager could not start: \(error)")
        }
    }

    /// Xwayland's Wayland connection ended (it died or is ending): its surfaces are gone.
    private func clientDidDestroy() {
        client = nil
        clientDestroyed = nil
        budgetBox?.release()
        budgetBox = nil
        wm?.shutdown()
        wm = nil
    }

    /// Xwayland's process ended: reaped, reported, and the sockets watched again.
    private func processDidEnd() {
        guard let child = pid, let status = ExitStatus.reap(child) else { return }
        let reason = ExitStatus.describe(status)
        cleanUpProcess()
        if !isShutDown {
            log("strata: Xwayland on \(displayName) \(reason); it starts again at the next X connection")
            watchSockets()
        }
    }

    private func cleanUpProcess() {
        pid = nil
        processWatcher?.remove()
        processWatcher = nil
        if pidfd >= 0 { close(pidfd) }
        pidfd = -1
        readyWatcher?.remove()
        readyWatcher = nil
        if readyFD >= 0 { close(readyFD) }
        readyFD = -1
        if wmFD >= 0 { close(wmFD) }
        wmFD = -1
        wm?.shutdown()
        wm = nil
        if let client {
            clientDestroyed?.remove()
            clientDestroyed = nil
            self.client = nil
            wl_client_destroy(client)
            budgetBox?.release()
            budgetBox = nil
        }
    }

    /// Stops Xwayland (SIGTERM, then reaped; a process that does not end at once is killed),
    /// then closes the window manager's connection and its windows, and removes the sockets and
    /// the lock file. Idempotent.
    ///
    /// The window manager stays connected until Xwayland has ended: its connection holds the
    /// Composite redirection of every toplevel, and Xwayland 22 drops a redirection without
    /// dropping the window's surface, then crashes (a NULL buffer) at the next damage it posts.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        for watcher in socketWatchers { watcher.remove() }
        socketWatchers.removeAll()
        if let child = pid {
            kill(child, SIGTERM)
            var status: Int32 = 0
            // Up to 0.5 s for it to end (Strata is exiting), then SIGKILL.
            var waited = 0
            while waitpid(child, &status, WNOHANG) == 0, waited < 50 {
                usleep(10_000)
                waited += 1
            }
            if waited == 50 {
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
            }
            cleanUpProcess()
        }
        sockets.remove()
    }
}
