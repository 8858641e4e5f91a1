import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A client with a seat, a data device and a window (so it can be made key).
final class ClipboardClient {
    // Released in this order: the surface's buffer before the connection it was made on.
    let surface: TestSurface
    let window: Window
    let device: TestDataDevice
    let manager: OpaquePointer
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer, x: Int) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getKeyboard()
        let manager = try client.bind(wl_data_device_manager_interface_ptr(), version: 3)
        device = try TestDataDevice(manager: manager, seat: seat.seat)
        let surface = try client.makeSurface(width: 40, height: 40)
        window = try #require(client.showPlainSurface(surface, x: x, y: 0))
        self.surface = surface
        self.manager = manager
        self.seat = seat
        self.client = client
    }

    func offer(_ text: String, types: [String] = ["text/plain;charset=utf-8", "text/plain"]) throws -> TestDataSource {
        let source = try TestDataSource(manager: manager, mimeTypes: types, payload: Array(text.utf8))
        wl_data_device_set_selection(device.device, source.source, seat.lastSerial)
        client.roundtrip()
        return source
    }
}

@Suite struct DataDeviceTests {
    @Test func textCopiedInOneClientIsPastedInAnother() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        let b = try ClipboardClient(server, x: 100)
        a.window.makeKey()
        a.client.roundtrip()
        let source = try a.offer("hello from A")
        #expect(!source.cancelled)

        b.window.makeKey()
        b.client.roundtrip()
        #expect(b.device.selection != nil)
        #expect(b.device.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])

        let fd = try #require(b.device.receiveSelection("text/plain;charset=utf-8"))
        defer { close(fd) }
        b.client.roundtrip()
        a.client.roundtrip()
        #expect(source.sendRequests == ["text/plain;charset=utf-8"])
        b.client.roundtrip()
        let (bytes, eof) = readToEnd(fd, stepping: b.client)
        #expect(String(decoding: bytes, as: UTF8.self) == "hello from A")
        #expect(eof)
    }

    @Test func theFocusedClientLearnsANewSelectionAtOnce() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        a.client.roundtrip()
        let before = a.device.selectionEvents
        _ = try a.offer("x")
        #expect(a.device.selectionEvents == before + 1)
        #expect(a.device.selectionMimeTypes.contains("text/plain"))
    }

    @Test func replacingTheSelectionCancelsTheOldSource() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        let first = try a.offer("one")
        let second = try a.offer("two")
        a.client.roundtrip()
        #expect(first.cancelled)
        #expect(!second.cancelled)
    }

    @Test func aClientDyingWithTheSelectionClearsIt() throws {
        let server = try TestServer()
        var a: ClipboardClient? = try ClipboardClient(server, x: 0)
        let b = try ClipboardClient(server, x: 100)
        a?.window.makeKey()
        let source = try a?.offer("gone soon")
        b.window.makeKey()
        b.client.roundtrip()
        #expect(b.device.selection != nil)
        a = nil
        b.client.roundtrip()
        #expect(b.device.selection == nil)
        withExtendedLifetime(source) {}
    }

    @Test func anOfferOfADestroyedSourceIsInert() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        let b = try ClipboardClient(server, x: 100)
        a.window.makeKey()
        let source = try a.offer("data")
        b.window.makeKey()
        b.client.roundtrip()
        let offer = try #require(b.device.selection)
        wl_data_source_destroy(source.source)
        a.client.roundtrip()
        var fds: [Int32] = [0, 0]
        #expect(strata_client_pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]) }
        wl_data_offer_receive(offer, "text/plain", fds[1])
        close(fds[1])
        #expect(b.client.roundtrip())
        a.client.roundtrip()
        #expect(source.sendRequests.isEmpty)
        let (bytes, eof) = readToEnd(fds[0], stepping: b.client)
        #expect(bytes.isEmpty && eof)
    }

    @Test func aSelectionFromAClientWithoutFocusOrSerialIsRefused() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        let b = try ClipboardClient(server, x: 100)  // b is key
        let source = try TestDataSource(manager: a.manager, mimeTypes: ["text/plain"], payload: [1])
        wl_data_device_set_selection(a.device.device, source.source, 12345)
        a.client.roundtrip()
        #expect(source.cancelled)
        b.client.roundtrip()
        #expect(b.device.selection == nil)
    }

    @Test func usingASourceTwiceIsAUsedSourceError() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        let source = try a.offer("once")
        wl_data_device_set_selection(a.device.device, source.source, a.seat.lastSerial)
        #expect(!a.client.roundtrip())
        #expect(a.client.protocolError?.code == 1)  // wl_data_device.error.used_source (wayland 1.23)
        #expect(a.client.protocolError?.interface == "wl_data_device")
    }

    @Test func aDragIconWithAnotherRoleIsARoleError() throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        wl_data_device_start_drag(a.device.device, nil, a.surface.surface, a.surface.surface, 0)
        #expect(!a.client.roundtrip())
        #expect(a.client.protocolError?.code == WL_DATA_DEVICE_ERROR_ROLE.rawValue)
        #expect(a.client.protocolError?.interface == "wl_data_device")
    }
}
