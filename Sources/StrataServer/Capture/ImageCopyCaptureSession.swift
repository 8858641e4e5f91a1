import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// ext_image_copy_capture_session_v1: repeated captures of one source into the client's wl_shm
/// buffers. It announces the constraints (`buffer_size`, the shm formats, `done`; no dma-buf)
/// at once and again whenever the source's size changes, and `stopped` when the source goes (the
/// screen disconnects, the toplevel unmaps or closes; a source that named nothing stops at once).
///
/// - A screen (`.output`) is read as screencopy reads it: `ScreenOutput.displayCanvas`, the
///   display's pixels (turned like the display; `transform` says how), with the cursor as drawn
///   only with `paint_cursors`.
///   The first capture is immediate; later ones are immediate when the screen painted a frame
///   since this session's last capture (all damaged), else they wait for the next painted frame
///   and report its damage.
/// - A toplevel (`.toplevel`) is the window's surface trees drawn alone at the window's size
///   (`Scene.drawImage(of:into:scale:)`, at its screen's scale), transparent where it draws
///   nothing, never a cursor. The first capture is immediate; later ones wait until the window's
///   pixels change (a commit in its trees, a model change: `Scene.windowImageChanged`), then draw it
///   all (all damaged).
final class ImageCopyCaptureSession: ResourceObject {
    unowned let capture: ImageCopyCapture
    let source: ImageCaptureSource.Target
    /// Whether a screen's image shows the cursor (without it, the image is copied while the
    /// screen shows none: `Scene.withoutCursor`, on every screen); a window's image never shows it.
    let paintCursors: Bool
    private(set) var isStopped = false
    /// The size the constraints last announced.
    private var advertisedSize: (width: Int32, height: Int32)?
    private var hasCaptured = false
    /// A screen's `paintedFrames` at this session's last capture.
    private var lastPaintedFrames = 0
    /// Whether a window's pixels changed since this session's last capture.
    private var sourceChanged = false
    /// The session's live frame (one at a time), and the frame waiting for a change.
    weak var frame: ImageCopyCaptureFrame?
    private var waitingFrame: ImageCopyCaptureFrame?

    init?(
        capture: ImageCopyCapture, source: ImageCaptureSource.Target, paintCursors: Bool,
        client: OpaquePointer, version: UInt32, id: UInt32
    ) {
        self.capture = capture
        self.source = source
        self.paintCursors = paintCursors
        super.init(
            client: client, interface: strata_ext_image_copy_capture_session_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        ext_image_copy_capture_session_v1_interface(
            create_frame: { _, resource, id in
                handle(resource, as: ImageCopyCaptureSession.self) { session in
                    if let frame = session.frame, !frame.isDestroyed {
                        throw ProtocolError(
                            code: EXT_IMAGE_COPY_CAPTURE_SESSION_V1_ERROR_DUPLICATE_FRAME.rawValue,
                            "create_frame before the previous frame was destroyed")
                    }
                    // Held by its resource until destroyed (the session's reference is weak).
                    let frame = ImageCopyCaptureFrame(session: session, id: id)
                    session.frame = frame
                }
            },
            destroy: destroyRequest))

    var compositor: Compositor { capture.compositor }

    var screenID: ScreenID? {
        if case .output(let id) = source { return id }
        return nil
    }

    private var output: ScreenOutput? { screenID.flatMap { compositor.scene.output(for: $0) } }

    /// The captured window, while it keeps the mapping the source was made for.
    private var window: Window? {
        guard case .toplevel(let id, let identifier) = source, compositor.toplevelList.identifier(of: id) == identifier,
            let window = compositor.windows.window(withID: id), !window.isClosed
        else { return nil }
        return window
    }

    /// The size of the source's image now; nil when the source is gone.
    private var currentSize: (width: Int32, height: Int32)? {
        switch source {
        case .output: return output.map { ($0.displayCanvas.width, $0.displayCanvas.height) }
        case .toplevel: return window.map { compositor.scene.imageSize(of: $0) }
        case .nothing: return nil
        }
    }

    /// Registers with the capture and announces the constraints (or stops: no source).
    func start() {
        capture.register(self)
        guard currentSize != nil else { return stop() }
        updateConstraints()
    }

    /// Announces the constraints when the source's size differs from the last announced.
    func updateConstraints() {
        guard !isStopped, !isDestroyed, let size = currentSize else { return }
        if let advertisedSize, advertisedSize == size { return }
        advertisedSize = size
        ext_image_copy_capture_session_v1_send_buffer_size(resource, UInt32(size.width), UInt32(size.height))
        // A screen's own format first; a window's transparency first for a toplevel.
        let formats = screenID != nil ? CaptureBuffer.formats : CaptureBuffer.formats.reversed()
        for format in formats { ext_image_copy_capture_session_v1_send_shm_format(resource, format) }
        ext_image_copy_capture_session_v1_send_done(resource)
    }

    /// The source is gone: `stopped` once; a waiting frame fails.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        if !isDestroyed { ext_image_copy_capture_session_v1_send_stopped(resource) }
        waitingFrame?.fail(.stopped)
    }

    // MARK: Capturing

    /// The frame's capture request (its buffer attached): now, or when the source changes.
    func capture(_ frame: ImageCopyCaptureFrame) {
        guard !isStopped, !isDestroyed else { return frame.fail(.stopped) }
        guard let size = currentSize else {
            stop()
            return frame.fail(.stopped)
        }
        if advertisedSize.map({ $0 != size }) ?? true {
            updateConstraints()
            return frame.fail(.bufferConstraints)
        }
        guard let target = CaptureBuffer(frame.buffer, width: size.width, height: size.height) else {
            return frame.fail(.bufferConstraints)
        }
        switch source {
        case .output:
            guard let output else { return frame.fail(.stopped) }
            if hasCaptured, lastPaintedFrames >= output.paintedFrames {
                wait(frame)
                frame.waitForPaint(of: output, in: compositor.scene)
                return
            }
            // What is damaged and not yet painted is painted first (as screencopy does).
            if !output.damage.isEmpty { compositor.scene.repaint(output) }
            copy(output, into: target, frame: frame, damage: nil)
        case .toplevel:
            guard let window else { return frame.fail(.stopped) }
            if hasCaptured, !sourceChanged { return wait(frame) }
            draw(window, into: target, frame: frame)
        case .nothing:
            frame.fail(.stopped)
        }
    }

    private func wait(_ frame: ImageCopyCaptureFrame) {
        waitingFrame = frame
        frame.isWaiting = true
    }

    /// A frame stops waiting (captured, failed, destroyed).
    func frameDidStopWaiting(_ frame: ImageCopyCaptureFrame) {
        if waitingFrame === frame { waitingFrame = nil }
        frame.stopWaitingForPaint()
    }

    /// The screen painted a frame: a waiting frame copies it if it damaged anything.
    func outputDidPaint(_ output: ScreenOutput, damage: PixmanRegion, frame: ImageCopyCaptureFrame) {
        guard waitingFrame === frame, !frame.isDestroyed else { return }
        let canvas = output.displayCanvas
        var boxes: [PixmanRegion.Box] = []
        damage.forEachBox { b in
            let x1 = max(b.x1, 0), y1 = max(b.y1, 0), x2 = min(b.x2, canvas.width), y2 = min(b.y2, canvas.height)
            if x1 < x2, y1 < y2 { boxes.append(PixmanRegion.Box(x1: x1, y1: y1, x2: x2, y2: y2)) }
        }
        guard !boxes.isEmpty else { return }  // still waiting
        frame.stopWaitingForPaint()
        frame.isWaiting = false
        waitingFrame = nil
        guard let size = currentSize, advertisedSize.map({ $0 == size }) == true,
            let target = CaptureBuffer(frame.buffer, width: size.width, height: size.height)
        else {
            updateConstraints()
            return frame.fail(.bufferConstraints)
        }
        copy(output, into: target, frame: frame, damage: boxes)
    }

    /// A window's pixels changed: new constraints if its size did, and a waiting frame draws it.
    func sourceDidChange() {
        sourceChanged = true
        updateConstraints()
        guard let frame = waitingFrame else { return }
        frame.isWaiting = false
        waitingFrame = nil
        capture(frame)
    }

    private func copy(
        _ output: ScreenOutput, into target: CaptureBuffer, frame: ImageCopyCaptureFrame, damage: [PixmanRegion.Box]?
    ) {
        let canvas = output.displayCanvas
        let whole = PixmanRegion.Box(x1: 0, y1: 0, x2: canvas.width, y2: canvas.height)
        let copied =
            paintCursors
            ? target.copy(canvas, box: whole)
            : compositor.scene.withoutCursor(on: output) { target.copy(canvas, box: whole) }
        guard copied else {
            return frame.fail(.unknown)
        }
        hasCaptured = true
        lastPaintedFrames = output.paintedFrames
        frame.ready(transform: UInt32(bitPattern: output.screen.transform.waylandValue), damage: damage ?? [whole])
    }

    private func draw(_ window: Window, into target: CaptureBuffer, frame: ImageCopyCaptureFrame) {
        guard capture.drawImage(of: window, into: target) else { return frame.fail(.unknown) }
        hasCaptured = true
        sourceChanged = false
        let size = compositor.scene.imageSize(of: window)
        frame.ready(
            transform: WL_OUTPUT_TRANSFORM_NORMAL.rawValue,
            damage: [PixmanRegion.Box(x1: 0, y1: 0, x2: size.width, y2: size.height)])
    }

    override func resourceDidDestroy() {
        waitingFrame?.fail(.stopped)
        capture.sessionDidEnd(self)
    }
}
