import CWaylandServer
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer
import StrataTrace

/// Records a session into a trace file (`strata --record FILE`, the control command `record`):
/// line-delimited JSON in the schema of docs/experiments.md ("Traces", `TraceFormat`).
///
/// It is one more observer of the model (every notification, as the EventLog encodes it, and
/// the screen's state after screen events), a listener of the scene's `framePresented` (each
/// presented frame with its hash and damage) and the seat's `inputHandled` and `dragChanged` (each
/// input event the seat handled with its target window, each step of a drag), a
/// listener of client connections, and the control server tells it each command and reply.
/// Lines are buffered (`TraceWriter`) and written in blocks to a regular file, up to a size
/// limit; past it the recording stops with an `end` line saying so.
public final class TraceRecorder {
    public let path: String
    unowned let compositor: Compositor
    let writer: TraceWriter
    private var token: ObserverToken?
    /// Its listeners of the scene's and the seat's signals.
    private var presentedToken: Signal<ScreenOutput>.Token?
    private var inputToken: Signal<(input: InjectedInput, time: UInt32)>.Token?
    private var dragToken: Signal<DragEvent>.Token?
    private var clientCreated: Listener?
    private var clients: [OpaquePointer: (number: Int, listener: Listener)] = [:]
    private var nextClientNumber = 1
    private var hashers: [ScreenID: ScreenHashing] = [:]
    private let startNanoseconds: UInt64
    /// The protocol messages of chosen clients (`logProtocol`), if asked for.
    private var protocolLog: ProtocolLog?
    /// The pictures written so far and their budget (`TraceRecorder+Images.swift`).
    let images: TraceImages
    /// Whether a control command is being run (its input lines say `during_command`).
    package var isRunningCommand = false
    /// The processes Strata started, to tell where requests, clients and windows come from.
    private var ancestry = ProcessAncestry()
    /// Called once when the recording stops by itself (size limit, write error) with the reason.
    public var onFailure: ((String) -> Void)?
    public private(set) var isStopped = false
    private var isStopping = false
    /// What the limit keeps free for the `end` line.
    private static let endReserve = 256
    /// The default size limit of a trace (`--record-limit`).
    public static let defaultMaximumBytes = 256 * 1024 * 1024

    /// Starts recording into `path` (a regular file, created or truncated). `command`: the argv
    /// Strata was started with, if any; `startedBy`: `command-line` or `control`; `started`: the
    /// processes Strata started before (the command's and each `exec`'s pid, `ControlServer`).
    public init(
        compositor: Compositor, path: String, maximumBytes: Int = TraceRecorder.defaultMaximumBytes,
        command: [String]? = nil, startedBy: String = "command-line",
        started: [Int32: TraceOrigin] = [:]
    ) throws(ControlError) {
        self.compositor = compositor
        self.path = path
        for (pid, origin) in started { ancestry.add(pid, as: origin) }
        writer = try TraceWriter(path: path, maximumBytes: max(4096, maximumBytes))
        images = TraceImages(traceLimit: max(4096, maximumBytes))
        startNanoseconds = compositor.clock.isManual ? 0 : compositor.clock.nanoseconds
        var header: [String: JSONValue] = [
            "version": JSONValue(TraceFormat.version),
            "strata": .string(TraceFormat.strataVersion),
            "clock": .string(compositor.clock.mode.rawValue),
            "policy": .string(compositor.windows.policy.name),
            "backend": .string(compositor.backend.name),
            "started_by": .string(startedBy),
            "screens": (try? JSONValue(encoding: compositor.windows.screens.map(ScreenInfo.init))) ?? .array([]),
            "windows": .number(Double(compositor.windows.windows.count)),
            "start_ns": JSONValue(startNanoseconds),
        ]
        if let command { header["command"] = .array(command.map { .string($0) }) }
        // The header is written whatever the limit (it counts the lines after it).
        writer.appendHeader(encode(.header, header))
        token = compositor.windows.notifications.addObserver(phase: .recording) { [unowned self] posted in
            self.modelDidPost(posted)
        }
        clientCreated = Listener { [unowned self] data in
            guard let data else { return }
            self.clientDidConnect(OpaquePointer(data))
        }
        clientCreated?.listen(toClientCreated: compositor.display.display)
        presentedToken = compositor.scene.framePresented.observe { [unowned self] output in
            self.screenDidPresent(output)
        }
        inputToken = compositor.seat.inputHandled.observe { [unowned self] handled in
            self.seatDidHandle(handled.input, time: handled.time)
        }
        dragToken = compositor.seat.dragChanged.observe { [unowned self] event in self.dragDidChange(event) }
    }

    deinit { stop(reason: "stopped") }

    public var lines: Int { writer.lines }
    public var bytes: Int { writer.bytes }
    public var failure: String? { writer.failure }

    /// Ends the recording: the `end` line, the buffer written, every hook removed. Safe twice.
    /// Writes what is buffered to the file (the control socket's `sync`): a regular file's write,
    /// once per request, never per frame.
    public func flush() {
        writer.flush()
    }

    public func stop(reason: String = "stopped") {
        guard !isStopped, !isStopping else { return }
        isStopping = true
        protocolLog?.stop()
        protocolLog = nil
        // What is damaged is painted now, so the trace ends with each screen's settled picture
        // (as a screenshot would show it), not with whatever the last tick had painted.
        if reason != "size_limit" { compositor.scene.repaintDamagedScreens() }
        if let token { compositor.windows.notifications.removeObserver(token) }
        token = nil
        clientCreated?.remove()
        clientCreated = nil
        for (_, entry) in clients { entry.listener.remove() }
        clients.removeAll()
        presentedToken?.remove()
        inputToken?.remove()
        dragToken?.remove()
        // Each screen's picture as it is now (frames since the last hash were not hashed).
        if reason != "size_limit" {
            for output in compositor.scene.outputs {
                guard let state = hashers[output.screen.id] else { continue }
                let hash = state.hasher.pictureHash(output.displayCanvas)
                writeThumbnail(screen: output.screen.id, canvas: output.displayCanvas, hash: hash, final: true)
                writeLastPicture(canvas: output.displayCanvas, hash: hash)
                writeFrame(screen: output.screen.id, frame: output.paintedFrames, hash: hash, damage: nil, final: true)
            }
        }
        isStopped = true
        var end: [String: JSONValue] = ["reason": .string(reason)]
        if let failure = writer.failure { end["error"] = .string(failure) }
        end["lines"] = JSONValue(writer.lines + 1)
        let line = encode(.end, end)
        writer.appendFinal(line)
        writer.close()
    }

    // MARK: Lines

    var sequence: UInt64 { compositor.windows.notifications.lastSequence }
    var time: UInt64 { compositor.clock.nanoseconds &- startNanoseconds }

    private func encode(_ type: TraceFormat.LineType, _ fields: [String: JSONValue]) -> Data {
        var object = fields
        object["type"] = .string(type.rawValue)
        if object["sequence"] == nil { object["sequence"] = JSONValue(sequence) }
        object["time_ns"] = JSONValue(time)
        return JSONValue.object(object).encodedLine()
    }

    private func write(_ type: TraceFormat.LineType, _ fields: [String: JSONValue]) {
        guard !isStopped else { return }
        writeLine(encode(type, fields))
    }

    func writeLine<Bytes: Collection>(_ line: Bytes) where Bytes.Element == UInt8 {
        guard !isStopped else { return }
        if !writer.append(line, reserve: Self.endReserve), !isStopping {
            let reason = writer.failure ?? "the trace could not be written"
            stop(reason: "size_limit")
            onFailure?(reason)
        }
    }

    // MARK: Model

    private func modelDidPost(_ posted: PostedNotification) {
        writeEvent(posted)
        if Self.changesTheStack(posted.notification) { writeWindowsIfChanged() }
        switch posted.notification {
        case .screenDidConnect(let id), .screenModeDidChange(let id), .screenDidChangeTransform(let id),
            .screenDidChangeScale(let id), .screenDidChangeBrightness(let id), .screenDidMove(let id),
            .screenDidChangeMirroring(let id, _), .screenDidChangeUsableArea(let id), .screenDidChangeOverscan(let id):
            if let screen = compositor.windows.screens.first(where: { $0.id == id }),
                let info = try? JSONValue(encoding: ScreenInfo(screen))
            {
                write(.screen, ["screen": info])
            }
        case .screenDidDisconnect(let id):
            hashers[id] = nil
            if lastHashing?.id == id { lastHashing = nil }
        default:
            break
        }
    }

    /// One `event` line, in the EventLog's form. The notifications of one window or one screen
    /// without a cause are written by hand as bytes (keys in order, as the coder sorts them); the
    /// others (levels, frames, mirroring, the session lock, any with a cause) through the kept
    /// JSONEncoder, once, with `time_ns` and `type` added at the end. (`JSONValue(encoding:)`
    /// would encode and decode: about 0.2 M instructions an event, and 1 M for a `windows` line.)
    private func writeEvent(_ posted: PostedNotification) {
        let notification = posted.notification
        let line = handLine
        line.removeAll()
        guard posted.cause == nil else { return writeEncodedEvent(posted, to: line) }
        switch notification {
        case .windowDidOpen(let id), .windowDidClose(let id), .windowDidBecomeVisible(let id),
            .windowDidBecomeHidden(let id),
            .windowDidBecomeKey(let id), .windowDidResignKey(let id), .windowDidChangeStacking(let id):
            appendEventHead(notification.name, to: line)
            if case .windowDidOpen = notification {
                // Whose window it is (its client's pid; an X window's from the XWM, 0 while unknown).
                let pid = compositor.windows.window(withID: id)?.pid ?? 0
                line.append(",\"origin\":\"")
                line.append(ascii: ancestry.origin(of: pid).rawValue)
                line.append(UInt8(ascii: "\""))
            }
            line.append(",\"sequence\":")
            line.append(Int64(clamping: posted.sequence))
            appendTimeAndType(to: line)
            line.append(",\"window\":")
            line.append(Int64(clamping: id.rawValue))
            line.append(UInt8(ascii: "}"))
            writeLine(line.line)
        case .screenDidConnect(let id), .screenDidDisconnect(let id), .screenModeDidChange(let id),
            .screenDidChangeTransform(let id), .screenDidChangeScale(let id), .screenDidChangeBrightness(let id),
            .screenDidChangeOverscan(let id), .screenDidMove(let id), .screenDidChangeUsableArea(let id):
            appendEventHead(notification.name, to: line)
            line.append(",\"screen\":")
            line.append(Int64(clamping: id.rawValue))
            line.append(",\"sequence\":")
            line.append(Int64(clamping: posted.sequence))
            appendTimeAndType(to: line)
            line.append(UInt8(ascii: "}"))
            writeLine(line.line)
        default:
            writeEncodedEvent(posted, to: line)
        }
    }

    /// An `event` line through the JSON coder (a window's `origin` after its fields).
    private func writeEncodedEvent(_ posted: PostedNotification, to line: TraceLineBuffer) {
        guard let object = try? encoder.encode(posted), object.last == UInt8(ascii: "}") else { return }
        if case .windowDidOpen(let id) = posted.notification {
            let pid = compositor.windows.window(withID: id)?.pid ?? 0
            line.append(",\"origin\":\"")
            line.append(ascii: ancestry.origin(of: pid).rawValue)
            line.append(UInt8(ascii: "\""))
        }
        appendTimeAndType(to: line)
        line.append(UInt8(ascii: "}"))
        var bytes = [UInt8](object.dropLast())
        bytes.append(contentsOf: line.line)
        writeLine(bytes)
    }

    private func appendEventHead(_ name: String, to line: TraceLineBuffer) {
        line.append("{\"name\":\"")
        line.append(ascii: name)  // a Swift identifier: nothing to escape
        line.append(UInt8(ascii: "\""))
    }

    private func appendTimeAndType(to line: TraceLineBuffer) {
        line.append(",\"time_ns\":")
        line.append(Int64(clamping: time))
        line.append(",\"type\":\"event\"")
    }

    /// The coder of the lines not written by hand (sorted keys, as `JSONValue.encodedLine`).
    private lazy var encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Whether a notification changes what the `windows` line holds (ids, levels, order, key,
    /// visibility, screens; a frame change is in its own event).
    private static func changesTheStack(_ notification: WindowServerNotification) -> Bool {
        switch notification {
        case .windowDidOpen, .windowDidClose, .windowDidBecomeVisible, .windowDidBecomeHidden, .windowDidBecomeKey,
            .windowDidResignKey, .windowDidChangeLevel, .windowDidChangeStacking, .windowDidMoveToScreen:
            return true
        default:
            return false
        }
    }

    private var lastWindows: [WindowInfo]?

    /// Every window (WindowInfo, front to back), when it differs from the last such line: a
    /// transaction's notifications all see the finished model, so it is written once. The list
    /// is compared as values, and encoded (once, no JSONValue) only when it changed.
    private func writeWindowsIfChanged() {
        let list = WindowInfo.list(compositor.windows)
        guard list != lastWindows, !isStopped else { return }
        lastWindows = list
        guard let windows = try? encoder.encode(list) else { return }
        let head = handLine
        head.removeAll()
        head.append("{\"sequence\":")
        head.append(Int64(clamping: sequence))
        head.append(",\"time_ns\":")
        head.append(Int64(clamping: time))
        head.append(",\"type\":\"windows\",\"windows\":")
        var line = [UInt8](head.line)
        line.append(contentsOf: windows)
        line.append(UInt8(ascii: "}"))
        writeLine(line)
    }

    // MARK: Clients

    private func clientDidConnect(_ client: OpaquePointer) {
        let number = nextClientNumber
        nextClientNumber += 1
        guard let listener = Listener({ [unowned self] _ in self.clientDidDisconnect(client) }) else { return }
        listener.listen(toClientDestroy: client)
        clients[client] = (number, listener)
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        var fields: [String: JSONValue] = ["event": "connect", "client": JSONValue(number)]
        // A connection Strata made itself (Xwayland's socket pair) carries Strata's own pid.
        if pid > 0, pid != getpid() { fields["pid"] = JSONValue(Int(pid)) }
        fields["origin"] = .string(ancestry.origin(of: pid).rawValue)
        write(.client, fields)
    }

    private func clientDidDisconnect(_ client: OpaquePointer) {
        protocolLog?.forget(client)
        guard let entry = clients.removeValue(forKey: client) else { return }
        entry.listener.remove()
        write(.client, ["event": "disconnect", "client": JSONValue(entry.number)])
    }

    /// Strata started `command` as `pid`: the session's command (`origin` `command`) or an
    /// `exec` (`exec`); its clients' `connect` lines name their own pids. The process is a root
    /// of `origin` from now on.
    public func processDidStart(pid: Int32, command: [String], origin: TraceOrigin = .exec) {
        ancestry.add(pid, as: origin)
        write(
            .client,
            [
                "event": "start", "pid": JSONValue(Int(pid)), "command": .array(command.map { .string($0) }),
                "origin": .string(origin.rawValue),
            ])
    }

    /// Where the process `pid` came from (`command`, `exec`, `outside`…): the control server asks
    /// it once per connection, for its peer (`ControlConnection.origin(in:)`).
    package func origin(ofPeer pid: Int32) -> TraceOrigin {
        ancestry.origin(of: pid)
    }

    /// Records the requests and events of the clients `selectors` choose (pids, or app ids;
    /// `strata --record-protocol`): a `protocol` line each, at most `maximumPerClient` a client.
    public func logProtocol(of selectors: [String], maximumPerClient: Int = 100_000) {
        guard !selectors.isEmpty, !isStopped else { return }
        protocolLog = ProtocolLog(
            display: compositor.display, windows: compositor.windows, selectors: selectors,
            maximumPerClient: maximumPerClient
        ) { [unowned self] client, fields in
            var fields = fields
            if let number = clients[client]?.number { fields["client"] = JSONValue(number) }
            write(.protocolMessage, fields)
        }
    }

    // MARK: Control commands

    /// A control request (as parsed) and its reply; `sequence`: the model's before it ran;
    /// `origin`: where its connection's peer came from; `shown`: what the windows the command
    /// acts on showed before it ran (`shownBefore`).
    package func recordCommand(
        request: JSONValue, reply: JSONValue?, connection: Int, peerPID: Int32, origin: TraceOrigin,
        sequence before: UInt64, shown: JSONValue? = nil
    ) {
        var fields: [String: JSONValue] = [
            "request": request, "reply": reply ?? .null, "connection": JSONValue(connection),
            "peer_pid": JSONValue(Int(peerPID)), "origin": .string(origin.rawValue), "sequence": JSONValue(before),
            "sequence_after": JSONValue(sequence),
        ]
        if let shown { fields["shown"] = shown }
        write(.command, fields)
    }

    // MARK: What the scene and the seat tell

    public func screenDidPresent(_ output: ScreenOutput) {
        let id = output.screen.id
        let state: ScreenHashing
        if let last = lastHashing, last.id == id {
            state = last  // the usual case: one screen, no dictionary lookup a frame
        } else if let existing = hashers[id] {
            state = existing
        } else {
            state = ScreenHashing(id: id)
            hashers[id] = state
        }
        lastHashing = state
        let damage = output.presentedDamage
        let canvas = output.displayCanvas
        state.hasher.markDamaged(canvas, damage: damage)
        // Hashing reads every damaged pixel, as much as drawing them: under the realtime clock a
        // picture is hashed when the model changed since the last hash, or 2 s after it (and at
        // the end); under the manual clock every frame.
        let now = compositor.clock.nanoseconds, sequence = self.sequence
        var hash: UInt64?
        if compositor.clock.isManual || sequence != state.sequence || now &- state.time >= Self.hashInterval
            || state.time == 0
        {
            hash = state.hasher.pictureHash(canvas)
            state.time = max(1, now)
            state.sequence = sequence
            if let hash { writeThumbnail(screen: id, canvas: canvas, hash: hash, final: false) }
        }
        writeFrame(screen: id, frame: output.paintedFrames, hash: hash, damage: damage)
    }

    /// A screen's hasher and when it last hashed.
    private final class ScreenHashing {
        let id: ScreenID
        let hasher = FrameHasher()
        init(id: ScreenID) { self.id = id }
        var time: UInt64 = 0
        var sequence: UInt64 = 0
    }

    /// The screen hashed last (its state also in `hashers`).
    private var lastHashing: ScreenHashing?

    /// The shortest time between two hashes of a screen's picture under the realtime clock when
    /// the model did not change. (500 ms made the hash of four redrawing 250×250 windows 9 % of
    /// the compositor's instructions; the replay compares only the last picture under this
    /// clock, the report marks a point where a hash changed.)
    static let hashInterval: UInt64 = 2_000_000_000

    /// One `frame` line, written by hand (one a frame: no dictionary).
    private func writeFrame(screen id: ScreenID, frame: Int, hash: UInt64?, damage: PixmanRegion?, final: Bool = false)
    {
        // Bytes into a block kept between frames: no string is made, nothing is allocated.
        let line = handLine
        line.removeAll()
        line.append("{\"type\":\"frame\",\"screen\":")
        line.append(Int64(clamping: id.rawValue))
        line.append(",\"frame\":")
        line.append(Int64(frame))
        if let hash {
            line.append(",\"hash\":\"")
            line.appendHex(hash)
            line.append(UInt8(ascii: "\""))
        }
        if final { line.append(",\"final\":true") }
        line.append(",\"damage\":[")
        var count = 0
        damage?.forEachBox { box in
            guard count < Self.maximumDamageBoxes else { return }
            if count > 0 { line.append(UInt8(ascii: ",")) }
            line.append(UInt8(ascii: "["))
            line.append(Int64(box.x1))
            line.append(UInt8(ascii: ","))
            line.append(Int64(box.y1))
            line.append(UInt8(ascii: ","))
            line.append(Int64(box.x2) - Int64(box.x1))
            line.append(UInt8(ascii: ","))
            line.append(Int64(box.y2) - Int64(box.y1))
            line.append(UInt8(ascii: "]"))
            count += 1
        }
        line.append("],\"boxes\":")
        line.append(Int64(damage?.boxCount ?? 0))
        line.append(",\"sequence\":")
        line.append(Int64(clamping: sequence))
        line.append(",\"time_ns\":")
        line.append(Int64(clamping: time))
        line.append(UInt8(ascii: "}"))
        writeLine(line.line)
    }

    /// The block of the lines written by hand.
    private let handLine = TraceLineBuffer()

    /// Damage boxes written per frame (the count says how many there were).
    static let maximumDamageBoxes = 16

    public func seatDidHandle(_ input: InjectedInput, time milliseconds: UInt32) {
        var fields: [String: JSONValue] = ["time_ms": JSONValue(Int(milliseconds))]
        let seat = compositor.seat
        var target: Window?
        switch input {
        case .pointerMotion(let screen, let x, let y):
            fields["input"] = "pointer-motion"
            fields["screen"] = JSONValue(screen.rawValue)
            fields["x"] = JSONValue(x)
            fields["y"] = JSONValue(y)
            target = seat?.pointerFocus.flatMap { compositor.scene.window(showing: $0) }
        case .pointerRelativeMotion(let dx, let dy):
            fields["input"] = "pointer-relative-motion"
            fields["dx"] = JSONValue(dx)
            fields["dy"] = JSONValue(dy)
            target = seat?.pointerFocus.flatMap { compositor.scene.window(showing: $0) }
        case .pointerButton(let button, let pressed):
            fields["input"] = "pointer-button"
            fields["button"] = JSONValue(Int(button))
            fields["state"] = pressed ? "down" : "up"
            target = seat?.pointerFocus.flatMap { compositor.scene.window(showing: $0) }
        case .pointerAxis(let vertical, let horizontal):
            fields["input"] = "pointer-axis"
            fields["vertical"] = JSONValue(vertical)
            fields["horizontal"] = JSONValue(horizontal)
            target = seat?.pointerFocus.flatMap { compositor.scene.window(showing: $0) }
        case .key(let keycode, let pressed, let virtualKeyboard):
            fields["input"] = "key"
            fields["keycode"] = JSONValue(Int(keycode))
            fields["state"] = pressed ? "down" : "up"
            if virtualKeyboard { fields["virtual"] = true }
            target = seat?.keyboardFocus.flatMap { compositor.scene.window(showing: $0) }
        case .touchDown(let id, let screen, let x, let y):
            fields["input"] = "touch-down"
            fields["touch_id"] = JSONValue(Int(id))
            fields["screen"] = JSONValue(screen.rawValue)
            fields["x"] = JSONValue(x)
            fields["y"] = JSONValue(y)
        case .touchMotion(let id, let x, let y):
            fields["input"] = "touch-motion"
            fields["touch_id"] = JSONValue(Int(id))
            fields["x"] = JSONValue(x)
            fields["y"] = JSONValue(y)
        case .touchUp(let id):
            fields["input"] = "touch-up"
            fields["touch_id"] = JSONValue(Int(id))
        case .touchCancel:
            fields["input"] = "touch-cancel"
        case .gestureBegin(let kind, let fingers):
            fields["input"] = "gesture-begin"
            fields["kind"] = .string(kind.rawValue)
            fields["fingers"] = JSONValue(Int(fingers))
            target = seat?.pointerFocus.flatMap { compositor.scene.window(showing: $0) }
        case .gestureUpdate(let kind, let dx, let dy, let scale, let rotation):
            fields["input"] = "gesture-update"
            fields["kind"] = .string(kind.rawValue)
            fields["dx"] = JSONValue(dx)
            fields["dy"] = JSONValue(dy)
            fields["scale"] = JSONValue(scale)
            fields["rotation"] = JSONValue(rotation)
        case .gestureEnd(let kind, let cancelled):
            fields["input"] = "gesture-end"
            fields["kind"] = .string(kind.rawValue)
            fields["cancelled"] = .bool(cancelled)
        case .tabletTool(let tool, let event, let axes):
            fields["input"] = "tablet-tool"
            fields["tool"] = .string(tool.type.name)
            fields["serial"] = JSONValue(tool.serial)
            switch event {
            case .motion(let screen, let x, let y):
                fields["phase"] = "move"
                fields["screen"] = JSONValue(screen.rawValue)
                fields["x"] = JSONValue(x)
                fields["y"] = JSONValue(y)
            case .axes: fields["phase"] = "axes"
            case .tip(let down): fields["phase"] = down ? "down" : "up"
            case .button(let button, let pressed):
                fields["phase"] = "button"
                fields["button"] = JSONValue(Int(button))
                fields["state"] = pressed ? "down" : "up"
            case .proximityOut: fields["phase"] = "out"
            }
            if let v = axes.pressure, v.isFinite { fields["pressure"] = JSONValue(v) }
            if let v = axes.distance, v.isFinite { fields["distance"] = JSONValue(v) }
            if let v = axes.tiltX, v.isFinite { fields["tilt_x"] = JSONValue(v) }
            if let v = axes.tiltY, v.isFinite { fields["tilt_y"] = JSONValue(v) }
            if let v = axes.rotation, v.isFinite { fields["rotation"] = JSONValue(v) }
            if let v = axes.slider, v.isFinite { fields["slider"] = JSONValue(v) }
            if let v = axes.wheelDegrees, v.isFinite { fields["wheel"] = JSONValue(v) }
            if axes.wheelClicks != 0 { fields["wheel_clicks"] = JSONValue(Int(axes.wheelClicks)) }
            target = seat?.tabletToolState(tool)?.focus.flatMap { compositor.scene.window(showing: $0) }
        }
        if let target { fields["window"] = JSONValue(target.id.rawValue) }
        if isRunningCommand {
            fields["during_command"] = true
        } else if let target, Self.isPress(input) {
            // A press from a backend: what its window showed (the client has not answered yet).
            fields["shown"] = shown(of: [target])
        }
        write(.input, fields)
    }

    public func dragDidChange(_ event: DragEvent) {
        var fields: [String: JSONValue] = [:]
        switch event {
        case .started(let touch, let hasSource, let hasIcon):
            fields["event"] = "start"
            if let touch { fields["touch_id"] = JSONValue(Int(touch)) }
            fields["source"] = .bool(hasSource)
            fields["icon"] = .bool(hasIcon)
        case .entered(let window):
            fields["event"] = "enter"
            if let window { fields["window"] = JSONValue(window.rawValue) }
        case .left:
            fields["event"] = "leave"
        case .ended(let end, let action):
            fields["event"] = "end"
            fields["reason"] = .string(end.rawValue)
            fields["action"] = .string(Self.actionName(action))
        }
        if isRunningCommand { fields["during_command"] = true }
        write(.drag, fields)
    }

    /// A dnd_action value's name (`none`, `copy`, `move`, `ask`).
    static func actionName(_ action: UInt32) -> String {
        switch action {
        case 1: return "copy"
        case 2: return "move"
        case 4: return "ask"
        default: return "none"
        }
    }
}
