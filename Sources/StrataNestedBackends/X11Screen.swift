import CXCB
import Glibc
import StrataRender
import StrataServer

/// One Strata screen shown as an X window of the parent X server.
///
/// With MIT-SHM the damaged boxes are copied into a shared segment the size of the canvas and
/// put with `xcb_shm_put_image`; the last put of a frame asks for a completion event, and no
/// new frame is written into the segment before it arrives (damage accumulates meanwhile).
/// Without MIT-SHM (a remote display) the boxes are sent with `xcb_put_image` in chunks that
/// fit the server's maximum request length.
final class X11Screen {
    unowned let backend: X11Backend
    let output: ScreenOutput
    let window: xcb_window_t
    private let gc: xcb_gcontext_t
    /// Screen damage not yet put into the window.
    let pendingDamage = PixmanRegion()
    private var segment: SharedSegment?
    /// A put with a completion request is in flight: the segment must not be written.
    private var waitingForCompletion = false
    private var chunk: [UInt32] = []
    /// Frames put into the window (tests).
    private(set) var presentedFrames = 0
    private(set) var isClosed = false

    private struct SharedSegment {
        let id: xcb_shm_seg_t
        let address: UnsafeMutableRawPointer
        let width: Int32
        let height: Int32
    }

    init(backend: X11Backend, output: ScreenOutput) {
        let c = backend.connection
        self.backend = backend
        self.output = output
        window = xcb_generate_id(c)
        gc = xcb_generate_id(c)
        let events: UInt32 =
            XCB_EVENT_MASK_EXPOSURE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
            | XCB_EVENT_MASK_KEY_PRESS.rawValue | XCB_EVENT_MASK_KEY_RELEASE.rawValue
            | XCB_EVENT_MASK_BUTTON_PRESS.rawValue | XCB_EVENT_MASK_BUTTON_RELEASE.rawValue
            | XCB_EVENT_MASK_POINTER_MOTION.rawValue | XCB_EVENT_MASK_ENTER_WINDOW.rawValue
            | XCB_EVENT_MASK_FOCUS_CHANGE.rawValue
        // Strata draws its cursor into the image (as headless does): the X server's own cursor
        // is made invisible over the window (a 1×1 cursor of an all-clear mask), so one shows.
        let blank = xcb_generate_id(c), cursor = xcb_generate_id(c)
        xcb_create_pixmap(c, 1, blank, backend.root, 1, 1)
        xcb_create_cursor(c, cursor, blank, blank, 0, 0, 0, 0, 0, 0, 0, 0)
        xcb_free_pixmap(c, blank)
        let values: [UInt32] = [0, events, cursor]  // back pixel black, event mask, cursor (in bit order)
        xcb_create_window(
            c, backend.depth, window, backend.root, 0, 0, UInt16(clamping: output.canvas.width),
            UInt16(clamping: output.canvas.height), 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), backend.visual,
            XCB_CW_BACK_PIXEL.rawValue | XCB_CW_EVENT_MASK.rawValue | XCB_CW_CURSOR.rawValue, values)
        xcb_free_cursor(c, cursor)
        let name = Array(output.screen.name.utf8)
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, XCB_ATOM_WM_NAME.rawValue,
            XCB_ATOM_STRING.rawValue, 8, UInt32(name.count), name)
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, backend.atoms.netWMName,
            backend.atoms.utf8String, 8, UInt32(name.count), name)
        let windowClass = Array("strata\0Strata\0".utf8)
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, XCB_ATOM_WM_CLASS.rawValue,
            XCB_ATOM_STRING.rawValue, 8, UInt32(windowClass.count), windowClass)
        var protocols = [backend.atoms.wmDeleteWindow]
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, backend.atoms.wmProtocols,
            XCB_ATOM_ATOM.rawValue, 32, 1, &protocols)
        xcb_create_gc(c, gc, window, 0, nil)
        xcb_map_window(c, window)
        pendingDamage.addRect(x: 0, y: 0, width: output.canvas.width, height: output.canvas.height)
    }

    // MARK: Frames

    func present(damage: PixmanRegion) {
        if output.displayCanvas !== output.canvas {
            // The damage is in the presented image's pixels (turned, dimmed, placed in an
            // overscan safe area) and the window shows the canvas: take all of it.
            pendingDamage.addRect(x: 0, y: 0, width: output.canvas.width, height: output.canvas.height)
        } else {
            pendingDamage.union(damage)
        }
        putIfReady()
    }

    /// Puts the pending damage into the window, unless the server still reads the segment.
    func putIfReady() {
        guard !isClosed, !waitingForCompletion, !pendingDamage.isEmpty, backend.isConnected else { return }
        let canvas = output.canvas
        pendingDamage.intersect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        guard !pendingDamage.isEmpty else { return }
        if backend.hasSharedMemory, let segment = segmentFitting(canvas) {
            putShared(canvas, segment)
        } else {
            putChunks(canvas)
        }
        pendingDamage.clear()
        presentedFrames += 1
        backend.flush()
    }

    private func putShared(_ canvas: Canvas, _ segment: SharedSegment) {
        let source = UnsafeRawPointer(canvas.data)
        let sourceStride = Int(canvas.stride), stride = Int(segment.width) * 4
        var boxes: [PixmanRegion.Box] = []
        pendingDamage.forEachBox { boxes.append($0) }
        for (index, box) in boxes.enumerated() {
            for y in Int(box.y1)..<Int(box.y2) {
                (segment.address + y * stride + Int(box.x1) * 4)
                    .copyMemory(from: source + y * sourceStride + Int(box.x1) * 4, byteCount: Int(box.width) * 4)
            }
            let last = index == boxes.count - 1
            xcb_shm_put_image(
                backend.connection, window, gc, UInt16(segment.width), UInt16(segment.height),
                UInt16(box.x1), UInt16(box.y1), UInt16(box.width), UInt16(box.height), Int16(box.x1), Int16(box.y1),
                backend.depth, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), last ? 1 : 0, segment.id, 0)
        }
        waitingForCompletion = true
    }

    private func putChunks(_ canvas: Canvas) {
        let maxPixels = max(1, (backend.maximumRequestBytes - 64) / 4)
        let rowPixels = Int(canvas.stride) / 4
        pendingDamage.forEachBox { box in
            let columns = min(Int(box.width), maxPixels)
            var x = Int(box.x1)
            while x < Int(box.x2) {
                let width = min(columns, Int(box.x2) - x)
                let rowsPerChunk = max(1, maxPixels / width)
                var y = Int(box.y1)
                while y < Int(box.y2) {
                    let rows = min(rowsPerChunk, Int(box.y2) - y)
                    chunk.removeAll(keepingCapacity: true)
                    for row in y..<(y + rows) {
                        let start = canvas.data + row * rowPixels + x
                        chunk.append(contentsOf: UnsafeBufferPointer(start: start, count: width))
                    }
                    chunk.withUnsafeBytes { bytes in
                        _ = xcb_put_image(
                            backend.connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, gc,
                            UInt16(width), UInt16(rows), Int16(x), Int16(y), 0, backend.depth,
                            UInt32(bytes.count), bytes.bindMemory(to: UInt8.self).baseAddress)
                    }
                    y += rows
                }
                x += width
            }
        }
    }

    /// The shared segment for the canvas's size, made (again) when the size changed; nil when
    /// the server refuses it (the backend then stops using MIT-SHM).
    private func segmentFitting(_ canvas: Canvas) -> SharedSegment? {
        if let segment, segment.width == canvas.width, segment.height == canvas.height { return segment }
        releaseSegment()
        let size = Int(canvas.width) * Int(canvas.height) * 4
        let shmID = shmget(0 /* IPC_PRIVATE */, size, IPC_CREAT | 0o600)
        guard shmID >= 0 else {
            backend.sharedMemoryFailed("shmget: \(String(cString: strerror(errno)))")
            return nil
        }
        guard let address = shmat(shmID, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(shmID, IPC_RMID, nil)
            backend.sharedMemoryFailed("shmat: \(String(cString: strerror(errno)))")
            return nil
        }
        let id = xcb_generate_id(backend.connection)
        let cookie = xcb_shm_attach_checked(backend.connection, id, UInt32(shmID), 0)
        let error = xcb_request_check(backend.connection, cookie)
        shmctl(shmID, IPC_RMID, nil)  // freed once both sides detach
        if let error {
            free(error)
            shmdt(address)
            backend.sharedMemoryFailed("the X server cannot attach the segment")
            return nil
        }
        let segment = SharedSegment(id: id, address: address, width: canvas.width, height: canvas.height)
        self.segment = segment
        return segment
    }

    private func releaseSegment() {
        guard let segment else { return }
        self.segment = nil
        if backend.isConnected { xcb_shm_detach(backend.connection, segment.id) }
        shmdt(segment.address)
    }

    /// The server finished reading the segment.
    func putDidComplete() {
        waitingForCompletion = false
        putIfReady()
    }

    /// Part of the window needs drawing again (Expose).
    func expose(x: UInt16, y: UInt16, width: UInt16, height: UInt16) {
        pendingDamage.addRect(x: Int32(x), y: Int32(y), width: Int32(width), height: Int32(height))
        putIfReady()
    }

    func destroy() {
        guard !isClosed else { return }
        isClosed = true
        if backend.isConnected {
            xcb_free_gc(backend.connection, gc)
            xcb_destroy_window(backend.connection, window)
        }
        releaseSegment()
    }
}
