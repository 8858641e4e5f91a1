import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRecording
import StrataServer
import StrataTrace

/// The control socket (docs/control.md): a Unix stream socket, mode 0600, in XDG_RUNTIME_DIR,
/// named after the Wayland socket (`strata-wayland-1.sock`), speaking line-delimited JSON.
///
/// Everything runs on the compositor's event loop: the listening socket and each connection
/// are `EventSource`s, requests are handled as their lines arrive, in order per connection, and
/// replies and events are queued per connection and written when the socket takes them.
/// Peers with another uid are refused (SO_PEERCRED).
public final class ControlServer {
    public let compositor: Compositor
    /// The socket's path; removed by `stop()`.
    public let path: String
    /// Starts a program for `exec` (the executable owns child processes and reaps them); it
    /// gets the argument vector and the working directory (nil: Strata's), returns the pid or
    /// throws a message. Without it, `exec` answers `unsupported`.
    public var spawn: ((_ arguments: [String], _ workingDirectory: String?) throws -> Int32)?
    /// The trace being recorded (`strata --record`, the `record` command), if any: it is told
    /// every command and its reply.
    public var recorder: TraceRecorder?
    /// The video being recorded (`record-video`), if any, and the stopped ones whose ffmpeg is
    /// still finishing the file.
    public var video: VideoRecorder?
    var pendingVideos: [VideoRecorder] = []
    /// `settle` requests waiting for their reply.
    var settleWaiters: [SettleWaiter] = []
    /// `wait-image` requests waiting for their reply.
    var imageWaiters: [ImageWaiter] = []
    /// The ffmpeg `record-video` starts (nil: `STRATA_FFMPEG`, else `ffmpeg` on PATH).
    public var videoEncoder: String?
    /// How long ffmpeg gets after `record-video stop` to write what waits and finish the file
    /// before it is killed.
    public var videoStopGrace: Double = 10
    /// The argv Strata was started with (written into the header of traces `record` starts).
    public var sessionCommand: [String]?
    /// The clients' private session bus (`strata --accessibility`), which `hello` names for
    /// strata-ctl's locators (`find`, `press`…); nil without one.
    public var accessibilityBus: String?
    /// The processes Strata started that are alive or were lately: the command's pid (`command`)
    /// and each `exec`'s (`exec`); traces `record` starts mark where requests, clients and
    /// windows come from by them (`ProcessAncestry`). Told by the starter (`processDidStart`).
    public private(set) var startedProcesses: [Int32: TraceOrigin] = [:]

    /// Strata started `pid` as its command (`origin` `command`) or for an `exec`; the recording,
    /// if any, is told too.
    public func processDidStart(pid: Int32, command: [String], origin: TraceOrigin) {
        if startedProcesses.count >= 1024 { startedProcesses = startedProcesses.filter { kill($0.key, 0) == 0 } }
        startedProcesses[pid] = origin
        if let recorder, !recorder.isStopped { recorder.processDidStart(pid: pid, command: command, origin: origin) }
    }
    /// The most a connection may have queued for writing (replies and events its peer has not
    /// read yet) before it is dropped.
    public var maximumQueuedBytes = 4 * 1024 * 1024
    /// Where the server's own diagnostics go (standard error by default).
    public var log: (String) -> Void = { line in
        let bytes = Array(("strata: " + line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private let listenFD: Int32
    private var listenSource: EventSource?
    private var connections: [Int: ControlConnection] = [:]
    private var nextConnectionNumber = 1
    let events: EventLog
    /// The session's focus metrics (`stats`), from the server's start.
    let focusMetrics: FocusMetricsObserver
    private(set) lazy var commands = ControlCommands(server: self)
    /// The policy delegate's connections and questions, from the first `delegate` command on.
    private var delegateHost: PolicyDelegateHost?
    var delegates: PolicyDelegateHost {
        if let delegateHost { return delegateHost }
        let host = PolicyDelegateHost(server: self)
        delegateHost = host
        return host
    }
    /// Connections whose requests are held back while the delegate decides (manual clock), in
    /// the order they were first held.
    private var heldConnections: [ControlConnection] = []
    private let uid = getuid()

    /// The default path for `compositor`'s Wayland socket: `$XDG_RUNTIME_DIR/strata-<name>.sock`.
    public static func defaultPath(for compositor: Compositor) -> String? {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty,
            let name = compositor.display.socketName
        else { return nil }
        return (runtime.hasSuffix("/") ? runtime : runtime + "/") + ControlProtocol.socketFileName(waylandSocket: name)
    }

    /// Listens at `path` (default: `defaultPath(for:)`).
    public init(compositor: Compositor, path: String? = nil) throws(ServerError) {
        compositor.display.assertOnLoop()
        guard let path = path ?? ControlServer.defaultPath(for: compositor) else {
            throw .setup("the control socket needs XDG_RUNTIME_DIR and a Wayland socket name")
        }
        self.compositor = compositor
        self.path = path
        do {
            listenFD = try UnixSocket.listen(path: path)
        } catch {
            throw .setup(error.description)
        }
        events = EventLog(manager: compositor.windows)
        focusMetrics = FocusMetricsObserver(compositor: compositor)
        events.deliver = { [unowned self] entry in
            for connection in connections.values where connection.isSubscribed {
                connection.send(eventLine: entry.line)
            }
        }
        guard
            let source = EventSource(
                display: compositor.display, fd: listenFD, events: .readable,
                handler: { [unowned self] _ in
                    acceptConnections()
                })
        else {
            Glibc.close(listenFD)
            unlink(path)
            events.stop()
            focusMetrics.stop()
            throw .setup("cannot watch the control socket on the event loop")
        }
        listenSource = source
    }

    deinit { stop() }

    /// Closes every connection and the socket, and removes the socket file; safe to call twice.
    public func stop() {
        recorder?.stop(reason: "exit")
        // Strata is exiting: ffmpeg gets what waits and finishes the file, with the time a stop
        // gives it (5 s was too short for ffmpeg on a loaded machine: killed before its header).
        for video in pendingVideos + (video.map { [$0] } ?? []) where !video.isFinished {
            video.finishNow(grace: videoStopGrace)
        }
        video = nil
        pendingVideos.removeAll()
        for waiter in settleWaiters { waiter.cancel() }
        settleWaiters.removeAll()
        for waiter in imageWaiters { waiter.cancel() }
        imageWaiters.removeAll()
        delegateHost?.stop()
        delegateHost = nil
        guard let listenSource else { return }
        listenSource.remove()
        self.listenSource = nil
        for connection in Array(connections.values) { connection.close() }
        Glibc.close(listenFD)
        unlink(path)
        events.stop()
        focusMetrics.stop()
    }

    /// How many clients are connected.
    public var connectionCount: Int { connections.count }

    private func acceptConnections() {
        while let fd = UnixSocket.accept(listenFD) {
            guard let peer = UnixSocket.peerCredentials(fd), peer.uid == uid else {
                log("control: refused a connection from another user")
                Glibc.close(fd)
                continue
            }
            let number = nextConnectionNumber
            nextConnectionNumber += 1
            guard let connection = ControlConnection(fd: fd, peer: peer, number: number, server: self) else {
                Descriptors.close(fd)
                continue
            }
            connections[number] = connection
            // Where the peer came from, found while it surely lives (traces' `origin`).
            if let recorder, !recorder.isStopped { _ = connection.origin(in: recorder) }
        }
    }

    func settleWaiterDidFinish(_ waiter: SettleWaiter) {
        settleWaiters.removeAll { $0 === waiter }
    }

    func imageWaiterDidFinish(_ waiter: ImageWaiter) {
        imageWaiters.removeAll { $0 === waiter }
    }

    func connectionDidClose(_ connection: ControlConnection) {
        connections[connection.number] = nil
        heldConnections.removeAll { $0 === connection }
        delegateHost?.connectionDidClose(connection.number)
    }

    /// The open connection numbered `number`, if any.
    func connection(number: Int) -> ControlConnection? {
        connections[number]
    }

    // MARK: Requests held back (manual clock, the delegate deciding)

    /// Whether `connection`'s next request waits for the delegate's outstanding questions.
    func holdsBack(_ connection: ControlConnection) -> Bool {
        delegateHost?.holdsBack(connection.number) ?? false
    }

    /// `connection` holds a request back.
    func connectionDidHold(_ connection: ControlConnection) {
        if !heldConnections.contains(where: { $0 === connection }) { heldConnections.append(connection) }
    }

    /// The `policy` reply's `delegate`, nil without one.
    var delegateDescription: JSONValue? { delegateHost?.description }

    var hasHeldRequests: Bool { !heldConnections.isEmpty }

    /// The questions are decided: the held requests run, connection by connection in the
    /// order they were held, until one asks a question again.
    func releaseHeldRequests() {
        while let first = heldConnections.first {
            if !first.isClosed, !first.releaseHeld() { return }
            heldConnections.removeFirst()
        }
    }

    // MARK: Requests

    /// Handles one request line and returns its reply (nil when the handler queued it itself).
    /// Never throws, never traps: every problem becomes an error reply.
    func handle(line: Data, from connection: ControlConnection) -> JSONValue? {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(line)
        } catch {
            return Self.errorReply(id: .null, ControlError(.badJSON, "the line is not valid JSON"))
        }
        let request: ControlRequest
        do throws(ControlError) {
            request = try ControlRequest(parsed)
        } catch {
            return Self.errorReply(id: ControlRequest.salvageID(parsed), error)
        }
        let recording = recorder.flatMap { $0.isStopped ? nil : $0 }
        let before = compositor.windows.notifications.lastSequence
        // What the windows the command acts on show before it runs (its image lines first).
        let shown = recording?.shownBefore(parsed)
        recording?.isRunningCommand = true
        let reply: JSONValue?
        // Whatever the command changes has its cause: the command, from this connection.
        let cause = compositor.cause(.command, request: request.words, requester: "control \(connection.number)")
        do throws(ControlError) {
            let fields = try compositor.windows.withCause(cause) { () throws(ControlError) in
                try commands.run(request, connection: connection)
            }
            if var fields {
                fields["id"] = request.id
                fields["ok"] = true
                reply = .object(fields)
            } else {
                reply = nil
            }
        } catch {
            reply = Self.errorReply(id: request.id, error)
        }
        recording?.isRunningCommand = false
        // The recorder that was running (`record stop` ends it, `record start` begins one: the
        // command is in neither trace).
        if let recording, !recording.isStopped {
            recording.recordCommand(
                request: parsed, reply: reply, connection: connection.number, peerPID: connection.peer.pid,
                origin: connection.origin(in: recording), sequence: before, shown: shown)
        }
        return reply
    }

    static func errorReply(id: JSONValue, _ error: ControlError) -> JSONValue {
        ["id": id, "ok": false, "error": ["code": .string(error.code.rawValue), "message": .string(error.message)]]
    }
}
