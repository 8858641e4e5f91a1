import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A client with a seat, a primary selection device and a window (so it can be made key).
final class PrimaryClient {
    // Released in this order: the surface's buffer before the connection it was made on.
    let surface: TestSurface
    let window: Window
    let device: TestPrimarySelectionDevice
    let manager: OpaquePointer
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer, x: Int) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getKeyboard()
        let manager = try client.bind(zwp_primary_selection_device_manager_v1_interface_ptr(), version: 1)
        device = try TestPrimarySelectionDevice(manager: manager, seat: seat.seat)
        let surface = try client.makeSurface(width: 40, height: 40)
        window = try #require(client.showPlainSurface(surface, x: x, y: 0))
        self.surface = surface
        self.manager = manager
        self.seat = seat
        self.client = client
    }

    func select(_ text: String, types: [String] = ["text/plain;charset=utf-8", "text/plain"]) throws -> TestPrimarySelectionSource {
        let source = try TestPrimarySelectionSource(manager: manager, mimeTypes: types, payload: Array(text.utf8))
        zwp_primary_selection_device_v1_set_selection(device.device, source.source, seat.lastSerial)
        client.roundtrip()
        return source
    }
}

/// zwp_primary_selection_device_manager_v1: middle-click paste between clients, with the
/// clipboard's rules.
@Suite struct PrimarySelectionTests {
    @Test func textSelectedInOneClientIsPastedInAnother() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let b = try PrimaryClient(server, x: 100)
        a.window.makeKey()
        a.client.roundtrip()
        let source = try a.select("selected in A")
        #expect(!source.cancelled)

        b.window.makeKey()
        b.client.roundtrip()
        #expect(b.device.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        let fd = try #require(b.device.receiveSelection("text/plain"))
        defer { close(fd) }
        b.client.roundtrip()
        a.client.roundtrip()
        #expect(source.sendRequests == ["text/plain"])
        b.client.roundtrip()
        let (bytes, eof) = readAvailable(fd)
        #expect(String(decoding: bytes, as: UTF8.self) == "selected in A")
        #expect(eof)
    }

    @Test func thePrimarySelectionIsApartFromTheClipboard() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let clipboard = try a.client.bind(wl_data_device_manager_interface_ptr(), version: 3)
        let dataDevice = try TestDataDevice(manager: clipboard, seat: a.seat.seat)
        a.client.roundtrip()
        _ = try a.select("primary only")
        #expect(a.device.selection != nil)
        #expect(dataDevice.selection == nil)
    }

    @Test func replacingThePrimarySelectionCancelsTheOldSource() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let first = try a.select("one")
        let second = try a.select("two")
        a.client.roundtrip()
        #expect(first.cancelled)
        #expect(!second.cancelled)
    }

    @Test func anOfferOfADestroyedSourceIsInertAndTheSelectionIsCleared() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let b = try PrimaryClient(server, x: 100)
        a.window.makeKey()
        let source = try a.select("data")
        b.window.makeKey()
        b.client.roundtrip()
        let offer = try #require(b.device.selection)
        let events = b.device.selectionEvents
        zwp_primary_selection_source_v1_destroy(source.source)
        a.client.roundtrip()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]) }
        zwp_primary_selection_offer_v1_receive(offer, "text/plain", fds[1])
        close(fds[1])
        #expect(b.client.roundtrip())
        a.client.roundtrip()
        #expect(source.sendRequests.isEmpty)
        let (bytes, eof) = readAvailable(fds[0])
        #expect(bytes.isEmpty && eof)
        #expect(b.device.selectionEvents == events + 1)
        #expect(b.device.selection == nil)
    }

    @Test func aSelectionFromAClientWithoutFocusOrSerialIsRefused() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let b = try PrimaryClient(server, x: 100)   // b is key
        let source = try TestPrimarySelectionSource(manager: a.manager, mimeTypes: ["text/plain"], payload: [1])
        zwp_primary_selection_device_v1_set_selection(a.device.device, source.source, 12345)
        a.client.roundtrip()
        #expect(source.cancelled)
        b.client.roundtrip()
        #expect(b.device.selection == nil)
    }
}
