import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// ext_image_copy_capture_frame_v1: one capture of its session's source into one attached
/// wl_shm buffer. `attach_buffer` and `damage_buffer` before `capture`; `capture` once. The
/// client's buffer damage is checked and otherwise unused: every capture writes the whole image.
/// It ends with `transform`, `damage`, `presentation_time` and `ready`, or with `failed`:
/// `buffer_constraints` for a buffer that is not wl_shm, not of an announced format and the
/// announced size, or too narrow a stride (or destroyed before `capture`); `stopped` when the
/// session stopped or went; `unknown` when the buffer dies while the frame waits or cannot be
/// read.
final class ImageCopyCaptureFrame: ResourceObject {
    let session: ImageCopyCaptureSession
    /// The attached buffer while it lives.
    private(set) var buffer: OpaquePointer?
    private var bufferListener: Listener?
    private var attached = false
    private var captured = false
    private var finished = false
    /// Set by the session while the frame waits for its source to change.
    var isWaiting = false
    /// While an output source's frame waits for a painted frame of its screen.
    private var frameWait: ScreenFrameWait?

    enum Failure {
        case unknown, bufferConstraints, stopped

        var wireValue: UInt32 {
            switch self {
            case .unknown: EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_UNKNOWN.rawValue
            case .bufferConstraints: EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS.rawValue
            case .stopped: EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_STOPPED.rawValue
            }
        }
    }

    init?(session: ImageCopyCaptureSession, id: UInt32) {
        self.session = session
        super.init(
            client: session.client, interface: strata_ext_image_copy_capture_frame_v1_interface(),
            version: session.version,
            id: id, implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        ext_image_copy_capture_frame_v1_interface(
            destroy: destroyRequest,
            attach_buffer: { _, resource, buffer in
                handle(resource, as: ImageCopyCaptureFrame.self) { frame in try frame.attach(buffer) }
            },
            damage_buffer: { _, resource, x, y, width, height in
                handle(resource, as: ImageCopyCaptureFrame.self) { frame in
                    try frame.checkNotCaptured("damage_buffer")
                    guard x >= 0, y >= 0, width > 0, height > 0 else {
                        throw ProtocolError(
                            code: EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_INVALID_BUFFER_DAMAGE.rawValue,
                            "damage \(x),\(y) \(width)x\(height): negative origin or empty size")
                    }
                }
            },
            capture: { _, resource in
                handle(resource, as: ImageCopyCaptureFrame.self) { frame in
                    try frame.checkNotCaptured("capture")
                    guard frame.attached else {
                        throw ProtocolError(
                            code: EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_NO_BUFFER.rawValue,
                            "capture without attach_buffer")
                    }
                    frame.captured = true
                    frame.session.capture(frame)
                }
            }))

    private func checkNotCaptured(_ request: String) throws(ProtocolError) {
        guard !captured else {
            throw ProtocolError(
                code: EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_ALREADY_CAPTURED.rawValue, "\(request) after capture")
        }
    }

    private func attach(_ newBuffer: OpaquePointer?) throws(ProtocolError) {
        try checkNotCaptured("attach_buffer")
        bufferListener?.remove()
        bufferListener = nil
        attached = true
        buffer = newBuffer
        guard let newBuffer else { return }
        let listener = Listener { [unowned self] _ in self.bufferDidDie() }
        listener?.listen(toResourceDestroy: newBuffer)
        bufferListener = listener
    }

    private func bufferDidDie() {
        bufferListener?.remove()
        bufferListener = nil
        buffer = nil
        if isWaiting { fail(.unknown) }
    }

    // MARK: Endings

    func ready(transform: UInt32, damage: [PixmanRegion.Box]) {
        guard !finished else { return }
        finish()
        guard !isDestroyed else { return }
        ext_image_copy_capture_frame_v1_send_transform(resource, transform)
        for b in damage { ext_image_copy_capture_frame_v1_send_damage(resource, b.x1, b.y1, b.width, b.height) }
        let now = session.compositor.clock.secondsAndNanoseconds
        ext_image_copy_capture_frame_v1_send_presentation_time(
            resource, UInt32(now.seconds >> 32), UInt32(truncatingIfNeeded: now.seconds),
            now.nanoseconds)
        ext_image_copy_capture_frame_v1_send_ready(resource)
    }

    func fail(_ reason: Failure) {
        guard !finished else { return }
        finish()
        if !isDestroyed { ext_image_copy_capture_frame_v1_send_failed(resource, reason.wireValue) }
    }

    private func finish() {
        finished = true
        stopWaiting()
        bufferListener?.remove()
        bufferListener = nil
        buffer = nil
    }

    private func stopWaiting() {
        guard isWaiting else { return }
        isWaiting = false
        session.frameDidStopWaiting(self)
    }

    // MARK: Waiting for a screen's frame

    /// Waits for the next painted frame of `output` (an output source with nothing new), or for
    /// the screen to go (the frame fails, the session stops).
    func waitForPaint(of output: ScreenOutput, in scene: Scene) {
        frameWait = ScreenFrameWait(
            scene: scene, output: output,
            painted: { [weak self] output in
                guard let self else { return }
                self.session.outputDidPaint(output, damage: output.presentedDamage, frame: self)
            },
            going: { [weak self] in
                guard let self else { return }
                self.fail(.stopped)
                self.session.stop()
            })
    }

    func stopWaitingForPaint() {
        frameWait?.cancel()
        frameWait = nil
    }

    override func resourceDidDestroy() {
        stopWaitingForPaint()
        stopWaiting()
        bufferListener?.remove()
        bufferListener = nil
    }
}
