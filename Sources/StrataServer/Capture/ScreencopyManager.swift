import CStrataServerGlue
import CWaylandServer
import StrataModel
import Glibc
import StrataRender

/// zwlr_screencopy_manager_v1 v3: copies a screen (or a region of it) as the display shows it
/// (`ScreenOutput.displayCanvas`) into a client's wl_shm buffer. Privileged: the compositor hides
/// the global from clients its `clientPrivilege` does not allow. Only wl_shm buffers (no dmabuf).
enum ScreencopyManager {
    static let version: UInt32 = 3

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwlr_screencopy_manager_v1_interface(), version: version)
        { [unowned compositor] client, version, id in
            _ = ScreencopyManagerBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

/// One client's manager; its frames share `session`, which remembers the last frame each screen
/// had when this manager last copied it (copy_with_damage waits for a newer one).
final class ScreencopyManagerBinding: ResourceObject {
    unowned let compositor: Compositor
    let session = ScreencopySession()

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_zwlr_screencopy_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwlr_screencopy_manager_v1_interface(
            capture_output: { _, resource, id, overlayCursor, output in
                handle(resource, as: ScreencopyManagerBinding.self) { manager in
                    manager.capture(id: id, output: output, region: nil, overlayCursor: overlayCursor != 0)
                }
            },
            capture_output_region: { _, resource, id, overlayCursor, output, x, y, width, height in
                handle(resource, as: ScreencopyManagerBinding.self) { manager in
                    manager.capture(
                        id: id, output: output,
                        region: Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)),
                        overlayCursor: overlayCursor != 0)
                }
            },
            destroy: destroyRequest))

    /// Makes the frame and tells its buffer parameters; a frame of a gone screen, or of a region
    /// outside it, fails at once.
    private func capture(id: UInt32, output: OpaquePointer?, region: Rect?, overlayCursor: Bool) {
        let screenOutput = ResourceObject.from(output, as: OutputBinding.self)?.output
        let box = screenOutput.flatMap { $0.displayBox(ofLogical: region) }
        guard
            let frame = ScreencopyFrame(
                compositor: compositor, session: session, client: client, version: version, id: id,
                output: box == nil ? nil : screenOutput, box: box, overlayCursor: overlayCursor)
        else { return }
        frame.sendBufferParameters()
    }
}

final class ScreencopySession {
    /// Screen → its `paintedFrames` when last copied through this manager.
    var lastCopied: [ScreenID: Int] = [:]
}

/// zwlr_screencopy_frame_v1: one copy of `box` (displayCanvas pixels) of a screen, with the
/// cursor only when the client asked for it (`overlay_cursor`; else `Scene.withoutCursor`).
final class ScreencopyFrame: ResourceObject {
    unowned let compositor: Compositor
    let session: ScreencopySession
    private(set) weak var output: ScreenOutput?
    let box: PixmanRegion.Box
    /// Whether the copy shows the cursor (`overlay_cursor`).
    let overlayCursor: Bool
    private var used = false
    /// The client's buffer while the frame waits for damage (released if the buffer dies).
    private var waitingBuffer: OpaquePointer?
    private var bufferListener: Listener?
    /// While it waits for a painted frame of its screen.
    private var frameWait: ScreenFrameWait?

    init?(
        compositor: Compositor, session: ScreencopySession, client: OpaquePointer, version: UInt32, id: UInt32,
        output: ScreenOutput?, box: PixmanRegion.Box?, overlayCursor: Bool
    ) {
        self.compositor = compositor
        self.overlayCursor = overlayCursor
        self.session = session
        self.output = output
        self.box = box ?? PixmanRegion.Box(x1: 0, y1: 0, x2: 0, y2: 0)
        super.init(
            client: client, interface: strata_zwlr_screencopy_frame_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwlr_screencopy_frame_v1_interface(
            copy: { _, resource, buffer in
                handle(resource, as: ScreencopyFrame.self) { frame in try frame.copyRequest(buffer, withDamage: false) }
            },
            destroy: destroyRequest,
            copy_with_damage: { _, resource, buffer in
                handle(resource, as: ScreencopyFrame.self) { frame in try frame.copyRequest(buffer, withDamage: true) }
            }))

    static let format = WL_SHM_FORMAT_XRGB8888.rawValue
    var stride: UInt32 { UInt32(box.width) * 4 }

    func sendBufferParameters() {
        guard output != nil, box.width > 0, box.height > 0 else {
            fail()
            return
        }
        zwlr_screencopy_frame_v1_send_buffer(resource, Self.format, UInt32(box.width), UInt32(box.height), stride)
        if version >= 3 { zwlr_screencopy_frame_v1_send_buffer_done(resource) }
    }

    private func copyRequest(_ buffer: OpaquePointer?, withDamage: Bool) throws {
        guard !used else {
            throw ProtocolError(
                code: ZWLR_SCREENCOPY_FRAME_V1_ERROR_ALREADY_USED.rawValue, "the frame was already copied")
        }
        guard let buffer, wl_shm_buffer_get(buffer) != nil else {
            throw ProtocolError(code: ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER.rawValue, "not a wl_shm buffer")
        }
        guard CaptureBuffer(buffer, width: box.width, height: box.height) != nil else {
            throw ProtocolError(
                code: ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER.rawValue,
                "the buffer does not match the frame's buffer event (\(box.width)x\(box.height), stride \(stride))")
        }
        used = true
        guard let output else { return fail() }
        if withDamage, session.lastCopied[output.screen.id].map({ $0 >= output.paintedFrames }) == true {
            // Nothing new since this manager's last copy: wait for a painted frame.
            waitingBuffer = buffer
            let listener = Listener { [unowned self] _ in self.fail() }
            listener?.listen(toResourceDestroy: buffer)
            bufferListener = listener
            frameWait = ScreenFrameWait(
                scene: compositor.scene, output: output,
                painted: { [weak self] output in self?.outputDidPaint(output) },
                going: { [weak self] in self?.fail() })
            return
        }
        if !output.damage.isEmpty { compositor.scene.repaint(output) }
        finish(output, buffer: buffer, damage: withDamage ? [box] : nil)
    }

    /// A painted frame of the screen this frame waits on: copies it if it damaged the region.
    private func outputDidPaint(_ output: ScreenOutput) {
        guard !isDestroyed, let buffer = waitingBuffer else { return }
        var boxes: [PixmanRegion.Box] = []
        output.presentedDamage.forEachBox { b in
            let x1 = max(b.x1, box.x1), y1 = max(b.y1, box.y1), x2 = min(b.x2, box.x2), y2 = min(b.y2, box.y2)
            if x1 < x2, y1 < y2 { boxes.append(PixmanRegion.Box(x1: x1, y1: y1, x2: x2, y2: y2)) }
        }
        guard !boxes.isEmpty else { return }  // still waiting
        stopWaiting()
        finish(output, buffer: buffer, damage: boxes)
    }

    private func finish(_ output: ScreenOutput, buffer: OpaquePointer, damage: [PixmanRegion.Box]?) {
        guard let target = CaptureBuffer(buffer, width: box.width, height: box.height) else { return fail() }
        let box = self.box, canvas = output.displayCanvas
        let copied =
            overlayCursor
            ? target.copy(canvas, box: box)
            : compositor.scene.withoutCursor(on: output) { target.copy(canvas, box: box) }
        guard copied else { return fail() }
        session.lastCopied[output.screen.id] = output.paintedFrames
        for b in damage ?? [] {
            zwlr_screencopy_frame_v1_send_damage(
                resource, UInt32(b.x1 - box.x1), UInt32(b.y1 - box.y1), UInt32(b.width), UInt32(b.height))
        }
        zwlr_screencopy_frame_v1_send_flags(resource, 0)
        let now = output.compositor?.clock.secondsAndNanoseconds ?? (seconds: 0, nanoseconds: 0)
        zwlr_screencopy_frame_v1_send_ready(
            resource, UInt32(now.seconds >> 32), UInt32(truncatingIfNeeded: now.seconds), now.nanoseconds)
    }

    /// The copy cannot happen (the screen or the buffer is gone, or the region is empty).
    func fail() {
        stopWaiting()
        guard !isDestroyed else { return }
        zwlr_screencopy_frame_v1_send_failed(resource)
    }

    private func stopWaiting() {
        bufferListener?.remove()
        bufferListener = nil
        waitingBuffer = nil
        frameWait?.cancel()
        frameWait = nil
    }

    override func resourceDidDestroy() { stopWaiting() }
}
