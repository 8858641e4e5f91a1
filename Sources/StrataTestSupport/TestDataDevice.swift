import CStrataClientGlue
import CWaylandClient
import Foundation

/// A test client's wl_data_device, recording the selection offers it receives and the drag
/// events (`dragEvents`).
public final class TestDataDevice {
    /// A drag-and-drop event as the device (and the drag's offer) received it.
    public enum DragEvent: Equatable, CustomStringConvertible {
        case enter(surface: UInt32, x: Double, y: Double, hasOffer: Bool)
        case leave
        case motion(x: Double, y: Double)
        case drop
        /// wl_data_offer.source_actions and action of the drag's offer.
        case sourceActions(UInt32)
        case action(UInt32)

        public var description: String {
            switch self {
            case .enter(let s, let x, let y, let o): return "enter(\(s), \(x), \(y), offer: \(o))"
            case .leave: return "leave"
            case .motion(let x, let y): return "motion(\(x), \(y))"
            case .drop: return "drop"
            case .sourceActions(let a): return "source_actions(\(a))"
            case .action(let a): return "action(\(a))"
            }
        }
    }

    /// Every drag event, in order.
    public private(set) var dragEvents: [DragEvent] = []
    /// The offer of the last enter (kept after leave and drop, for receive and finish), and the
    /// serial of that enter.
    public private(set) var dragOffer: OpaquePointer?
    public private(set) var enterSerial: UInt32 = 0

    /// Returns the drag events recorded so far and forgets them.
    public func takeDragEvents() -> [DragEvent] {
        defer { dragEvents.removeAll() }
        return dragEvents
    }

    /// The mime types announced for the drag's offer.
    public var dragMimeTypes: [String] { dragOffer.flatMap { offerTypes[$0] } ?? [] }

    /// Asks the drag's offer for `mimeType` through a pipe; returns the read end (non-blocking).
    public func receiveDrag(_ mimeType: String) -> Int32? {
        guard let dragOffer else { return nil }
        var fds: [Int32] = [0, 0]
        guard strata_client_pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        wl_data_offer_receive(dragOffer, mimeType, fds[1])
        close(fds[1])
        return fds[0]
    }
    public let device: OpaquePointer
    /// Mime types announced for each offer (by offer proxy).
    private var offerTypes: [OpaquePointer: [String]] = [:]
    /// The current selection offer (nil: no selection, or none received yet).
    public private(set) var selection: OpaquePointer?
    /// How many selection events arrived.
    public private(set) var selectionEvents = 0

    public init(manager: OpaquePointer, seat: OpaquePointer) throws {
        guard let device = wl_data_device_manager_get_data_device(manager, seat) else {
            throw TestClient.Failure.connect("get_data_device failed")
        }
        self.device = device
        wl_data_device_add_listener(device, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The mime types of the current selection offer.
    public var selectionMimeTypes: [String] { selection.flatMap { offerTypes[$0] } ?? [] }

    /// Asks for the selection in `mimeType` through a pipe; returns the pipe's read end
    /// (non-blocking), the write end is already handed over and closed here.
    public func receiveSelection(_ mimeType: String) -> Int32? {
        guard let selection else { return nil }
        var fds: [Int32] = [0, 0]
        guard strata_client_pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        wl_data_offer_receive(selection, mimeType, fds[1])
        close(fds[1])  // libwayland sent a duplicate
        return fds[0]
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestDataDevice? {
        data.map { Unmanaged<TestDataDevice>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = wl_data_device_listener(
        data_offer: { data, _, offer in
            guard let device = from(data), let offer else { return }
            device.offerTypes[offer] = []
            wl_data_offer_add_listener(offer, &TestDataDevice.offerListener, data)
        },
        enter: { data, _, serial, surface, x, y, offer in
            guard let device = from(data) else { return }
            device.enterSerial = serial
            if let offer { device.dragOffer = offer }
            device.dragEvents.append(
                .enter(
                    surface: surface.map { wl_proxy_get_id($0) } ?? 0, x: wl_fixed_to_double(x),
                    y: wl_fixed_to_double(y), hasOffer: offer != nil))
        },
        leave: { data, _ in from(data)?.dragEvents.append(.leave) },
        motion: { data, _, _, x, y in
            from(data)?.dragEvents.append(.motion(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        drop: { data, _ in from(data)?.dragEvents.append(.drop) },
        selection: { data, _, offer in
            guard let device = from(data) else { return }
            if let old = device.selection, old != offer {
                device.offerTypes[old] = nil
                wl_data_offer_destroy(old)
            }
            device.selection = offer
            device.selectionEvents += 1
        })

    private static var offerListener = wl_data_offer_listener(
        offer: { data, offer, mimeType in
            guard let device = from(data), let offer, let mimeType else { return }
            device.offerTypes[offer, default: []].append(String(cString: mimeType))
        },
        source_actions: { data, _, actions in from(data)?.dragEvents.append(.sourceActions(actions)) },
        action: { data, _, action in from(data)?.dragEvents.append(.action(action)) })
}

/// A test client's wl_data_source offering `payload` in its mime types.
public final class TestDataSource {
    public let source: OpaquePointer
    public var payload: [UInt8]
    public private(set) var cancelled = false
    /// Its drag events, in order: `target(mime|null)`, `action(n)`, `dnd_drop_performed`,
    /// `dnd_finished`, `cancelled`.
    public private(set) var dragEvents: [String] = []
    /// Mime types the source was asked to send.
    public private(set) var sendRequests: [String] = []
    /// A source that never writes: the fds of send events are kept open, unwritten (`heldFDs`,
    /// the test closes them).
    public var holdsFDs = false
    public private(set) var heldFDs: [Int32] = []

    public init(manager: OpaquePointer, mimeTypes: [String], payload: [UInt8]) throws {
        guard let source = wl_data_device_manager_create_data_source(manager) else {
            throw TestClient.Failure.connect("create_data_source failed")
        }
        self.source = source
        self.payload = payload
        for type in mimeTypes { wl_data_source_offer(source, type) }
        wl_data_source_add_listener(source, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    private var isDestroyed = false

    /// Destroys the source (a client that is done with it; the selection it was ends).
    public func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        wl_data_source_destroy(source)
    }

    /// The proxy's events no longer reach this object once it is gone (a `cancelled` after
    /// release read freed memory). Only the user data is touched: the connection may be gone.
    deinit {
        if !isDestroyed { wl_proxy_set_user_data(source, nil) }
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestDataSource? {
        data.map { Unmanaged<TestDataSource>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = wl_data_source_listener(
        target: { data, _, mimeType in
            from(data)?.dragEvents.append("target(\(mimeType.map { String(cString: $0) } ?? "null"))")
        },
        send: { data, _, mimeType, fd in
            defer { close(fd) }
            guard let source = from(data) else { return }
            source.sendRequests.append(mimeType.map { String(cString: $0) } ?? "")
            if source.holdsFDs {
                source.heldFDs.append(fcntl(fd, F_DUPFD_CLOEXEC, 0))  // not inherited by processes other tests start
                return
            }
            source.payload.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                    if n <= 0 { break }
                    done += n
                }
            }
        },
        cancelled: { data, _ in
            from(data)?.cancelled = true
            from(data)?.dragEvents.append("cancelled")
        },
        dnd_drop_performed: { data, _ in from(data)?.dragEvents.append("dnd_drop_performed") },
        dnd_finished: { data, _ in from(data)?.dragEvents.append("dnd_finished") },
        action: { data, _, action in from(data)?.dragEvents.append("action(\(action))") })
}

/// Reads what is in a non-blocking fd now; nil at once if nothing, with `eof` set at end of file.
public func readAvailable(_ fd: Int32) -> (bytes: [UInt8], eof: Bool) {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
            result.append(contentsOf: buffer[0..<n])
        } else {
            return (result, n == 0)
        }
    }
}

/// Reads a non-blocking fd while `client` steps, until its end of file or `seconds`; the bytes,
/// and whether the end came. The end comes once every copy of the write end is closed, and the
/// posix_spawn child of another test thread holds copies of every descriptor until its exec:
/// under load the end can come a little after the writer closed, so tests wait for it.
public func readToEnd(_ fd: Int32, stepping client: TestClient, seconds: Double = 10) -> (bytes: [UInt8], eof: Bool) {
    var bytes: [UInt8] = []
    var eof = false
    _ = client.wait(seconds: seconds) {
        let (more, end) = readAvailable(fd)
        bytes += more
        eof = end
        return end
    }
    return (bytes, eof)
}
