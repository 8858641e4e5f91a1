import CStrataClientGlue
import CWaylandClient
import Foundation

/// The primary-selection protocol a test client speaks: zwp_primary_selection_v1, or GTK 3's
/// older gtk_primary_selection (the same requests and events under other names).
public enum PrimarySelectionProtocol: Sendable {
    case zwp, gtk
}

/// A test client's primary selection device (either protocol), recording the selection offers
/// it receives.
public final class TestPrimarySelectionDevice {
    public let device: OpaquePointer
    public let kind: PrimarySelectionProtocol
    private var offerTypes: [OpaquePointer: [String]] = [:]
    /// The current selection offer (nil: no selection, or none received yet).
    public private(set) var selection: OpaquePointer?
    public private(set) var selectionEvents = 0

    public init(manager: OpaquePointer, seat: OpaquePointer, protocol kind: PrimarySelectionProtocol = .zwp) throws {
        let made =
            switch kind {
            case .zwp: zwp_primary_selection_device_manager_v1_get_device(manager, seat)
            case .gtk: gtk_primary_selection_device_manager_get_device(manager, seat)
            }
        guard let device = made else { throw TestClient.Failure.connect("get_device failed") }
        self.device = device
        self.kind = kind
        let data = Unmanaged.passUnretained(self).toOpaque()
        switch kind {
        case .zwp: zwp_primary_selection_device_v1_add_listener(device, &Self.zwpListener, data)
        case .gtk: gtk_primary_selection_device_add_listener(device, &Self.gtkListener, data)
        }
    }

    public var selectionMimeTypes: [String] { selection.flatMap { offerTypes[$0] } ?? [] }

    /// Asks for the selection in `mimeType` through a pipe; returns the pipe's non-blocking read end.
    public func receiveSelection(_ mimeType: String) -> Int32? {
        guard let selection else { return nil }
        var fds: [Int32] = [0, 0]
        guard strata_client_pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        switch kind {
        case .zwp: zwp_primary_selection_offer_v1_receive(selection, mimeType, fds[1])
        case .gtk: gtk_primary_selection_offer_receive(selection, mimeType, fds[1])
        }
        close(fds[1])  // libwayland sent a duplicate
        return fds[0]
    }

    private func received(_ offer: OpaquePointer?, data: UnsafeMutableRawPointer?) {
        guard let offer else { return }
        offerTypes[offer] = []
        switch kind {
        case .zwp: zwp_primary_selection_offer_v1_add_listener(offer, &Self.zwpOfferListener, data)
        case .gtk: gtk_primary_selection_offer_add_listener(offer, &Self.gtkOfferListener, data)
        }
    }

    private func selected(_ offer: OpaquePointer?) {
        if let old = selection, old != offer {
            offerTypes[old] = nil
            switch kind {
            case .zwp: zwp_primary_selection_offer_v1_destroy(old)
            case .gtk: gtk_primary_selection_offer_destroy(old)
            }
        }
        selection = offer
        selectionEvents += 1
    }

    private func offered(_ offer: OpaquePointer?, _ mimeType: UnsafePointer<CChar>?) {
        guard let offer, let mimeType else { return }
        offerTypes[offer, default: []].append(String(cString: mimeType))
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestPrimarySelectionDevice? {
        data.map { Unmanaged<TestPrimarySelectionDevice>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var zwpListener = zwp_primary_selection_device_v1_listener(
        data_offer: { data, _, offer in from(data)?.received(offer, data: data) },
        selection: { data, _, offer in from(data)?.selected(offer) })
    private static var gtkListener = gtk_primary_selection_device_listener(
        data_offer: { data, _, offer in from(data)?.received(offer, data: data) },
        selection: { data, _, offer in from(data)?.selected(offer) })
    private static var zwpOfferListener = zwp_primary_selection_offer_v1_listener(
        offer: { data, offer, mimeType in from(data)?.offered(offer, mimeType) })
    private static var gtkOfferListener = gtk_primary_selection_offer_listener(
        offer: { data, offer, mimeType in from(data)?.offered(offer, mimeType) })
}

/// A test client's primary selection source (either protocol) offering `payload`.
public final class TestPrimarySelectionSource {
    public let source: OpaquePointer
    public var payload: [UInt8]
    public private(set) var cancelled = false
    public private(set) var sendRequests: [String] = []

    public init(
        manager: OpaquePointer, mimeTypes: [String], payload: [UInt8], protocol kind: PrimarySelectionProtocol = .zwp
    ) throws {
        let made =
            switch kind {
            case .zwp: zwp_primary_selection_device_manager_v1_create_source(manager)
            case .gtk: gtk_primary_selection_device_manager_create_source(manager)
            }
        guard let source = made else { throw TestClient.Failure.connect("create_source failed") }
        self.source = source
        self.payload = payload
        let data = Unmanaged.passUnretained(self).toOpaque()
        switch kind {
        case .zwp:
            for type in mimeTypes { zwp_primary_selection_source_v1_offer(source, type) }
            zwp_primary_selection_source_v1_add_listener(source, &Self.zwpListener, data)
        case .gtk:
            for type in mimeTypes { gtk_primary_selection_source_offer(source, type) }
            gtk_primary_selection_source_add_listener(source, &Self.gtkListener, data)
        }
    }

    /// Writes the payload into `fd` (then closed) for a paste in `mimeType`.
    private func send(_ mimeType: UnsafePointer<CChar>?, _ fd: Int32) {
        defer { close(fd) }
        sendRequests.append(mimeType.map { String(cString: $0) } ?? "")
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

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestPrimarySelectionSource? {
        data.map { Unmanaged<TestPrimarySelectionSource>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var zwpListener = zwp_primary_selection_source_v1_listener(
        send: { data, _, mimeType, fd in
            guard let source = from(data) else { close(fd); return }
            source.send(mimeType, fd)
        },
        cancelled: { data, _ in from(data)?.cancelled = true })
    private static var gtkListener = gtk_primary_selection_source_listener(
        send: { data, _, mimeType, fd in
            guard let source = from(data) else { close(fd); return }
            source.send(mimeType, fd)
        },
        cancelled: { data, _ in from(data)?.cancelled = true })
}
