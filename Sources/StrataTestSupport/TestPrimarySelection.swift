import CStrataClientGlue
import CWaylandClient
import Foundation

/// A test client's zwp_primary_selection_device_v1, recording the selection offers it receives.
public final class TestPrimarySelectionDevice {
    public let device: OpaquePointer
    private var offerTypes: [OpaquePointer: [String]] = [:]
    /// The current selection offer (nil: no selection, or none received yet).
    public private(set) var selection: OpaquePointer?
    public private(set) var selectionEvents = 0

    public init(manager: OpaquePointer, seat: OpaquePointer) throws {
        guard let device = zwp_primary_selection_device_manager_v1_get_device(manager, seat) else {
            throw TestClient.Failure.connect("get_device failed")
        }
        self.device = device
        zwp_primary_selection_device_v1_add_listener(device, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public var selectionMimeTypes: [String] { selection.flatMap { offerTypes[$0] } ?? [] }

    /// Asks for the selection in `mimeType` through a pipe; returns the pipe's non-blocking read end.
    public func receiveSelection(_ mimeType: String) -> Int32? {
        guard let selection else { return nil }
        var fds: [Int32] = [0, 0]
        guard strata_client_pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        zwp_primary_selection_offer_v1_receive(selection, mimeType, fds[1])
        close(fds[1])   // libwayland sent a duplicate
        return fds[0]
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestPrimarySelectionDevice? {
        data.map { Unmanaged<TestPrimarySelectionDevice>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = zwp_primary_selection_device_v1_listener(
        data_offer: { data, _, offer in
            guard let device = from(data), let offer else { return }
            device.offerTypes[offer] = []
            zwp_primary_selection_offer_v1_add_listener(offer, &TestPrimarySelectionDevice.offerListener, data)
        },
        selection: { data, _, offer in
            guard let device = from(data) else { return }
            if let old = device.selection, old != offer {
                device.offerTypes[old] = nil
                zwp_primary_selection_offer_v1_destroy(old)
            }
            device.selection = offer
            device.selectionEvents += 1
        })

    private static var offerListener = zwp_primary_selection_offer_v1_listener(
        offer: { data, offer, mimeType in
            guard let device = from(data), let offer, let mimeType else { return }
            device.offerTypes[offer, default: []].append(String(cString: mimeType))
        })
}

/// A test client's zwp_primary_selection_source_v1 offering `payload`.
public final class TestPrimarySelectionSource {
    public let source: OpaquePointer
    public var payload: [UInt8]
    public private(set) var cancelled = false
    public private(set) var sendRequests: [String] = []

    public init(manager: OpaquePointer, mimeTypes: [String], payload: [UInt8]) throws {
        guard let source = zwp_primary_selection_device_manager_v1_create_source(manager) else {
            throw TestClient.Failure.connect("create_source failed")
        }
        self.source = source
        self.payload = payload
        for type in mimeTypes { zwp_primary_selection_source_v1_offer(source, type) }
        zwp_primary_selection_source_v1_add_listener(source, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestPrimarySelectionSource? {
        data.map { Unmanaged<TestPrimarySelectionSource>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = zwp_primary_selection_source_v1_listener(
        send: { data, _, mimeType, fd in
            defer { close(fd) }
            guard let source = from(data) else { return }
            source.sendRequests.append(mimeType.map { String(cString: $0) } ?? "")
            source.payload.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                    if n <= 0 { break }
                    done += n
                }
            }
        },
        cancelled: { data, _ in from(data)?.cancelled = true })
}
