import CStrataClientGlue
import CWaylandClient
import Foundation

/// A test client's data control (zwlr_data_control_manager_v1 or ext_data_control_manager_v1):
/// the manager, one device, the offers it was sent and the sources it made. No surface.
public final class TestDataControl {
    public enum Flavor: Sendable { case wlr, ext }

    public let flavor: Flavor
    public let manager: OpaquePointer
    public let device: OpaquePointer
    public let version: UInt32
    private var offerTypes: [OpaquePointer: [String]] = [:]
    /// The current clipboard and primary selection offers (nil: none).
    public private(set) var selection: OpaquePointer?
    public private(set) var primarySelection: OpaquePointer?
    public private(set) var selectionEvents = 0
    public private(set) var primarySelectionEvents = 0
    public private(set) var finished = false

    public init(client: TestClient, seat: OpaquePointer, flavor: Flavor, version: UInt32? = nil) throws {
        self.flavor = flavor
        switch flavor {
        case .wlr:
            manager = try client.bind(zwlr_data_control_manager_v1_interface_ptr(), version: version)
            guard let device = zwlr_data_control_manager_v1_get_data_device(manager, seat) else {
                throw TestClient.Failure.connect("get_data_device failed")
            }
            self.device = device
            zwlr_data_control_device_v1_add_listener(device, &Self.wlrListener, nil)
        case .ext:
            manager = try client.bind(ext_data_control_manager_v1_interface_ptr(), version: version)
            guard let device = ext_data_control_manager_v1_get_data_device(manager, seat) else {
                throw TestClient.Failure.connect("get_data_device failed")
            }
            self.device = device
            ext_data_control_device_v1_add_listener(device, &Self.extListener, nil)
        }
        self.version = wl_proxy_get_version(device)
        wl_proxy_set_user_data(device, Unmanaged.passUnretained(self).toOpaque())
    }

    public var selectionMimeTypes: [String] { selection.flatMap { offerTypes[$0] } ?? [] }
    public var primarySelectionMimeTypes: [String] { primarySelection.flatMap { offerTypes[$0] } ?? [] }

    /// A new source offering `mimeTypes` with `payload` (not set as a selection yet).
    public func makeSource(mimeTypes: [String], payload: [UInt8]) throws -> TestDataControlSource {
        try TestDataControlSource(control: self, mimeTypes: mimeTypes, payload: payload)
    }

    /// set_selection (or set_primary_selection) with `source` (nil: clear it).
    public func set(_ source: TestDataControlSource?, primary: Bool = false) {
        switch (flavor, primary) {
        case (.wlr, false): zwlr_data_control_device_v1_set_selection(device, source?.source)
        case (.wlr, true): zwlr_data_control_device_v1_set_primary_selection(device, source?.source)
        case (.ext, false): ext_data_control_device_v1_set_selection(device, source?.source)
        case (.ext, true): ext_data_control_device_v1_set_primary_selection(device, source?.source)
        }
    }

    /// Asks for the selection (or the primary selection) in `mimeType` through a pipe; returns
    /// the pipe's non-blocking read end.
    public func receive(_ mimeType: String, primary: Bool = false) -> Int32? {
        guard let offer = primary ? primarySelection : selection else { return nil }
        var fds: [Int32] = [0, 0]
        guard strata_client_pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        switch flavor {
        case .wlr: zwlr_data_control_offer_v1_receive(offer, mimeType, fds[1])
        case .ext: ext_data_control_offer_v1_receive(offer, mimeType, fds[1])
        }
        close(fds[1])  // libwayland sent a duplicate
        return fds[0]
    }

    private static func from(_ proxy: OpaquePointer?) -> TestDataControl? {
        guard let proxy, let data = wl_proxy_get_user_data(proxy) else { return nil }
        return Unmanaged<TestDataControl>.fromOpaque(data).takeUnretainedValue()
    }

    private func dataOffer(_ offer: OpaquePointer) {
        offerTypes[offer] = []
        wl_proxy_set_user_data(offer, Unmanaged.passUnretained(self).toOpaque())
        switch flavor {
        case .wlr:
            zwlr_data_control_offer_v1_add_listener(
                offer, &Self.wlrOfferListener, Unmanaged.passUnretained(self).toOpaque())
        case .ext:
            ext_data_control_offer_v1_add_listener(
                offer, &Self.extOfferListener, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    private func didReceive(_ offer: OpaquePointer?, primary: Bool) {
        let old = primary ? primarySelection : selection
        if let old, old != offer {
            offerTypes[old] = nil
            switch flavor {
            case .wlr: zwlr_data_control_offer_v1_destroy(old)
            case .ext: ext_data_control_offer_v1_destroy(old)
            }
        }
        if primary {
            primarySelection = offer
            primarySelectionEvents += 1
        } else {
            selection = offer
            selectionEvents += 1
        }
    }

    private static var wlrListener = zwlr_data_control_device_v1_listener(
        data_offer: { _, device, offer in
            guard let offer else { return }
            from(device)?.dataOffer(offer)
        },
        selection: { _, device, offer in from(device)?.didReceive(offer, primary: false) },
        finished: { _, device in from(device)?.finished = true },
        primary_selection: { _, device, offer in from(device)?.didReceive(offer, primary: true) })

    private static var extListener = ext_data_control_device_v1_listener(
        data_offer: { _, device, offer in
            guard let offer else { return }
            from(device)?.dataOffer(offer)
        },
        selection: { _, device, offer in from(device)?.didReceive(offer, primary: false) },
        finished: { _, device in from(device)?.finished = true },
        primary_selection: { _, device, offer in from(device)?.didReceive(offer, primary: true) })

    private static var wlrOfferListener = zwlr_data_control_offer_v1_listener(
        offer: { data, offer, mimeType in
            guard let data, let offer, let mimeType else { return }
            Unmanaged<TestDataControl>.fromOpaque(data).takeUnretainedValue().offerTypes[offer, default: []].append(
                String(cString: mimeType))
        })

    private static var extOfferListener = ext_data_control_offer_v1_listener(
        offer: { data, offer, mimeType in
            guard let data, let offer, let mimeType else { return }
            Unmanaged<TestDataControl>.fromOpaque(data).takeUnretainedValue().offerTypes[offer, default: []].append(
                String(cString: mimeType))
        })
}

/// A test client's data control source offering `payload`.
public final class TestDataControlSource {
    public let source: OpaquePointer
    public let flavor: TestDataControl.Flavor
    public var payload: [UInt8]
    public private(set) var cancelled = false
    public private(set) var sendRequests: [String] = []
    /// A source that never writes: the fds of send events are kept open, unwritten (`heldFDs`,
    /// the test closes them).
    public var holdsFDs = false
    public private(set) var heldFDs: [Int32] = []

    init(control: TestDataControl, mimeTypes: [String], payload: [UInt8]) throws {
        flavor = control.flavor
        self.payload = payload
        switch control.flavor {
        case .wlr:
            guard let source = zwlr_data_control_manager_v1_create_data_source(control.manager) else {
                throw TestClient.Failure.connect("create_data_source failed")
            }
            self.source = source
            zwlr_data_control_source_v1_add_listener(source, &Self.wlrListener, nil)
        case .ext:
            guard let source = ext_data_control_manager_v1_create_data_source(control.manager) else {
                throw TestClient.Failure.connect("create_data_source failed")
            }
            self.source = source
            ext_data_control_source_v1_add_listener(source, &Self.extListener, nil)
        }
        wl_proxy_set_user_data(source, Unmanaged.passUnretained(self).toOpaque())
        for type in mimeTypes { offer(type) }
    }

    private var isDestroyed = false

    /// Destroys the source (its owner is gone: the selection it was ends). Not in deinit.
    public func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        switch flavor {
        case .wlr: zwlr_data_control_source_v1_destroy(source)
        case .ext: ext_data_control_source_v1_destroy(source)
        }
    }

    /// offer(mime_type).
    public func offer(_ mimeType: String) {
        switch flavor {
        case .wlr: zwlr_data_control_source_v1_offer(source, mimeType)
        case .ext: ext_data_control_source_v1_offer(source, mimeType)
        }
    }

    private static func from(_ proxy: OpaquePointer?) -> TestDataControlSource? {
        guard let proxy, let data = wl_proxy_get_user_data(proxy) else { return nil }
        return Unmanaged<TestDataControlSource>.fromOpaque(data).takeUnretainedValue()
    }

    private func send(_ mimeType: UnsafePointer<CChar>?, fd: Int32) {
        sendRequests.append(mimeType.map { String(cString: $0) } ?? "")
        if holdsFDs {
            heldFDs.append(fcntl(fd, F_DUPFD_CLOEXEC, 0))  // not inherited by processes other tests start
            return
        }
        payload.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var done = 0
            while done < bytes.count {
                let n = write(fd, base + done, bytes.count - done)
                if n <= 0 { break }
                done += n
            }
        }
    }

    private static var wlrListener = zwlr_data_control_source_v1_listener(
        send: { _, source, mimeType, fd in
            defer { close(fd) }
            from(source)?.send(mimeType, fd: fd)
        },
        cancelled: { _, source in from(source)?.cancelled = true })

    private static var extListener = ext_data_control_source_v1_listener(
        send: { _, source, mimeType, fd in
            defer { close(fd) }
            from(source)?.send(mimeType, fd: fd)
        },
        cancelled: { _, source in from(source)?.cancelled = true })
}
