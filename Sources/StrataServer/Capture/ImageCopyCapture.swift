import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// ext_image_copy_capture_manager_v1 v1 (privileged) and what its sessions need from the rest
/// of the compositor: which sessions read which screen or window, the model's screen changes
/// (new buffer constraints; a gone screen stops its sessions), a toplevel's unmap (stops its
/// sessions), and the scene's word that a window's pixels changed (`Scene.windowImageChanged`,
/// heard only while a toplevel session exists). Sessions per client are capped
/// (`ClientBudget.maxCaptureSessionsPerClient`).
public final class ImageCopyCapture {
    static let version: UInt32 = 1
    unowned let compositor: Compositor
    /// Live sessions of screens, and of windows by window.
    private var outputSessions: [ImageCopyCaptureSession] = []
    private var toplevelSessions: [WindowID: [ImageCopyCaptureSession]] = [:]
    /// Live sessions per client (the budget).
    private var sessionsPerClient: [OpaquePointer: Int] = [:]
    private var observerToken: ObserverToken?
    /// Its listener of the scene's `windowImageChanged`, while a toplevel session exists.
    private var imageToken: Signal<Window>.Token?
    /// The image a toplevel capture is composed in before it is copied into the client's buffer
    /// (libwayland lets a thread open one client's pool at a time: the window's buffers and the
    /// target cannot be open together). One for every session, grown to the largest window
    /// captured, freed when no toplevel session is left.
    private var scratch: UnsafeMutableRawPointer?
    private var scratchBytes = 0
    /// The largest window image drawn (8192×8192 pixels): a larger window's captures fail.
    static let maxWindowImageBytes = 256 << 20

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    deinit { scratch?.deallocate() }

    func install() -> Global? {
        observerToken = compositor.windows.notifications.addObserver(phase: .tools) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
        return Global(
            display: compositor.display, interface: strata_ext_image_copy_capture_manager_v1_interface(),
            version: Self.version
        ) { [unowned self] client, version, id in
            _ = ImageCopyCaptureManager(capture: self, client: client, version: version, id: id)
        }
    }

    func stop() {
        if let observerToken { compositor.windows.notifications.removeObserver(observerToken) }
        observerToken = nil
        imageToken?.remove()
        imageToken = nil
        releaseScratch()
    }

    private func releaseScratch() {
        scratch?.deallocate()
        scratch = nil
        scratchBytes = 0
    }

    /// Makes the scratch image at least `bytes` long; nil past `maxWindowImageBytes`.
    private func scratch(bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes <= Self.maxWindowImageBytes else { return nil }
        if scratchBytes < bytes {
            releaseScratch()
            scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            scratchBytes = bytes
        }
        return scratch
    }

    /// Draws the window's image (`Scene.drawImage`) and copies it into `target`, whose size the
    /// caller checked. False when it is too large or the buffer cannot be written.
    func drawImage(of window: Window, into target: CaptureBuffer) -> Bool {
        let scene = compositor.scene
        let size = scene.imageSize(of: window)
        let stride = Int(size.width) * 4, bytes = stride * Int(size.height)
        guard let scratch = scratch(bytes: bytes),
            let canvas = Canvas(
                wrapping: scratch, width: size.width, height: size.height,
                stride: Int32(stride), hasAlpha: target.hasAlpha)
        else { return false }
        scene.drawImage(of: window, into: canvas, scale: scene.imageScale(of: window))
        return target.copy(pixels: scratch, width: size.width, height: size.height, stride: stride)
    }

    /// The number of live sessions (tests).
    public var sessionCount: Int { outputSessions.count + toplevelSessions.values.reduce(0) { $0 + $1.count } }

    // MARK: Sessions

    /// Counts a new session of `client` against its budget; false past the cap.
    func admitSession(of client: OpaquePointer) -> Bool {
        let count = sessionsPerClient[client, default: 0]
        guard count < ClientBudget.maxCaptureSessionsPerClient else { return false }
        sessionsPerClient[client] = count + 1
        return true
    }

    func register(_ session: ImageCopyCaptureSession) {
        switch session.source {
        case .output:
            outputSessions.append(session)
        case .toplevel(let id, _):
            toplevelSessions[id, default: []].append(session)
            if imageToken == nil {
                imageToken = compositor.scene.windowImageChanged.observe { [unowned self] window in
                    self.windowImageDidChange(window)
                }
            }
        case .nothing:
            break
        }
    }

    /// Gives back one session of `client` (its resource is gone, or it could not be made).
    func refundSession(of client: OpaquePointer) {
        if let count = sessionsPerClient[client] { sessionsPerClient[client] = count > 1 ? count - 1 : nil }
    }

    /// A session's resource is gone: it leaves the lists and the client's count.
    func sessionDidEnd(_ session: ImageCopyCaptureSession) {
        refundSession(of: session.client)
        switch session.source {
        case .output:
            outputSessions.removeAll { $0 === session }
        case .toplevel(let id, _):
            toplevelSessions[id]?.removeAll { $0 === session }
            if toplevelSessions[id]?.isEmpty == true { toplevelSessions[id] = nil }
            if toplevelSessions.isEmpty {
                imageToken?.remove()
                imageToken = nil
                releaseScratch()
            }
        case .nothing:
            break
        }
    }

    // MARK: What changes under the sessions

    /// The toplevel unmapped or closed (its handles said `closed`): its sessions stop.
    func toplevelDidUnmap(_ id: WindowID) {
        guard let sessions = toplevelSessions[id] else { return }
        for session in sessions { session.stop() }
    }

    func windowImageDidChange(_ window: Window) {
        // A window unmapping (its surface without a buffer) is not drawn: its sessions stop next.
        guard !window.isClosed, window.rootSurface?.hasContent == true, let sessions = toplevelSessions[window.id]
        else { return }
        for session in sessions { session.sourceDidChange() }
    }

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .screenDidDisconnect(let id):
            for session in outputSessions where session.screenID == id { session.stop() }
        case .screenModeDidChange(let id), .screenDidChangeTransform(let id), .screenDidChangeScale(let id),
            .screenDidChangeOverscan(let id):
            for session in outputSessions where session.screenID == id { session.updateConstraints() }
        default:
            break
        }
    }
}

/// One client's ext_image_copy_capture_manager_v1.
final class ImageCopyCaptureManager: ResourceObject {
    unowned let capture: ImageCopyCapture

    init?(capture: ImageCopyCapture, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.capture = capture
        super.init(
            client: client, interface: strata_ext_image_copy_capture_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        ext_image_copy_capture_manager_v1_interface(
            create_session: { _, resource, id, source, options in
                handle(resource, as: ImageCopyCaptureManager.self) { manager in
                    let known = EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_OPTIONS_PAINT_CURSORS.rawValue
                    guard options & ~known == 0 else {
                        throw ProtocolError(
                            code: EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_ERROR_INVALID_OPTION.rawValue,
                            "unknown options \(options)")
                    }
                    try manager.createSession(id: id, source: source, paintCursors: options & known != 0)
                }
            },
            create_pointer_cursor_session: { _, resource, id, _, _ in
                handle(resource, as: ImageCopyCaptureManager.self) { manager in
                    _ = ImageCopyCaptureCursorSession(manager: manager, id: id)
                }
            },
            destroy: destroyRequest))

    func createSession(id: UInt32, source: OpaquePointer?, paintCursors: Bool) throws(ProtocolError) {
        guard capture.admitSession(of: client) else {
            throw .noMemory(
                "more than \(ClientBudget.maxCaptureSessionsPerClient) image copy capture sessions", client: client)
        }
        let target = ResourceObject.from(source, as: ImageCaptureSource.self)?.target ?? .nothing
        guard
            let session = ImageCopyCaptureSession(
                capture: capture, source: target, paintCursors: paintCursors,
                client: client, version: version, id: id)
        else {
            capture.refundSession(of: client)
            return
        }
        session.start()
    }
}

/// ext_image_copy_capture_cursor_session_v1: not offered. The object exists (the request has no
/// way to refuse), never sends enter or position, and its capture session is stopped at once.
final class ImageCopyCaptureCursorSession: ResourceObject {
    unowned let capture: ImageCopyCapture
    private var gaveSession = false

    init?(manager: ImageCopyCaptureManager, id: UInt32) {
        capture = manager.capture
        super.init(
            client: manager.client, interface: strata_ext_image_copy_capture_cursor_session_v1_interface(),
            version: manager.version, id: id, implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        ext_image_copy_capture_cursor_session_v1_interface(
            destroy: destroyRequest,
            get_capture_session: { _, resource, id in
                handle(resource, as: ImageCopyCaptureCursorSession.self) { cursor in
                    guard !cursor.gaveSession else {
                        throw ProtocolError(
                            code: EXT_IMAGE_COPY_CAPTURE_CURSOR_SESSION_V1_ERROR_DUPLICATE_SESSION.rawValue,
                            "get_capture_session was already sent")
                    }
                    cursor.gaveSession = true
                    guard cursor.capture.admitSession(of: cursor.client) else {
                        throw ProtocolError.noMemory(
                            "more than \(ClientBudget.maxCaptureSessionsPerClient) image copy capture sessions",
                            client: cursor.client)
                    }
                    guard
                        let session = ImageCopyCaptureSession(
                            capture: cursor.capture, source: .nothing, paintCursors: false,
                            client: cursor.client, version: cursor.version, id: id)
                    else {
                        cursor.capture.refundSession(of: cursor.client)
                        return
                    }
                    session.start()
                }
            }))
}
