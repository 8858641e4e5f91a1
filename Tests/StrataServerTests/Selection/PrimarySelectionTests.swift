import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A client with a seat, a primary selection device (zwp_primary_selection_v1, or GTK 3's older
/// gtk_primary_selection) and a window (so it can be made key).
final class PrimaryClient {
    // Released in this order: the surface's buffer before the connection it was made on.
    let surface: TestSurface
    let window: Window
    let device: TestPrimarySelectionDevice
    let manager: OpaquePointer
    let seat: TestSeat
    let client: TestClient
    var kind: PrimarySelectionProtocol { device.kind }

    init(_ server: TestServer, x: Int, protocol kind: PrimarySelectionProtocol = .zwp) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getKeyboard()
        let manager =
            switch kind {
            case .zwp: try client.bind(zwp_primary_selection_device_manager_v1_interface_ptr(), version: 1)
            case .gtk: try client.bind(gtk_primary_selection_device_manager_interface_ptr(), version: 1)
            }
        device = try TestPrimarySelectionDevice(manager: manager, seat: seat.seat, protocol: kind)
        let surface = try client.makeSurface(width: 40, height: 40)
        window = try #require(client.showPlainSurface(surface, x: x, y: 0))
        self.surface = surface
        self.manager = manager
        self.seat = seat
        self.client = client
    }

    func select(_ text: String, types: [String] = ["text/plain;charset=utf-8", "text/plain"]) throws
        -> TestPrimarySelectionSource
    {
        let source = try TestPrimarySelectionSource(
            manager: manager, mimeTypes: types, payload: Array(text.utf8), protocol: kind)
        switch kind {
        case .zwp: zwp_primary_selection_device_v1_set_selection(device.device, source.source, seat.lastSerial)
        case .gtk: gtk_primary_selection_device_set_selection(device.device, source.source, seat.lastSerial)
        }
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
        let (bytes, eof) = readToEnd(fd, stepping: b.client)
        #expect(String(decoding: bytes, as: UTF8.self) == "selected in A")
        #expect(eof)
    }

    @Test func thePrimarySelectionIsApartFromTheClipboard() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let clipboard = try a.client.bind(wl_data_device_manager_interface_ptr(), version: 3)
        let dataDevice = try TestDataDevice(manager: clipboard, seat: a.seat.seat)
        a.client.roundtrip()
        let source = try a.select("primary only")  // kept alive: its listener data is the object
        #expect(a.device.selection != nil)
        #expect(dataDevice.selection == nil)
        withExtendedLifetime(source) {}
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
        #expect(strata_client_pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        defer { close(fds[0]) }
        zwp_primary_selection_offer_v1_receive(offer, "text/plain", fds[1])
        close(fds[1])
        #expect(b.client.roundtrip())
        a.client.roundtrip()
        #expect(source.sendRequests.isEmpty)
        let (bytes, eof) = readToEnd(fds[0], stepping: b.client)
        #expect(bytes.isEmpty && eof)
        #expect(b.device.selectionEvents == events + 1)
        #expect(b.device.selection == nil)
    }

    @Test func aSelectionFromAClientWithoutFocusOrSerialIsRefused() throws {
        let server = try TestServer()
        let a = try PrimaryClient(server, x: 0)
        let b = try PrimaryClient(server, x: 100)  // b is key
        let source = try TestPrimarySelectionSource(manager: a.manager, mimeTypes: ["text/plain"], payload: [1])
        zwp_primary_selection_device_v1_set_selection(a.device.device, source.source, 12345)
        a.client.roundtrip()
        #expect(source.cancelled)
        b.client.roundtrip()
        #expect(b.device.selection == nil)
    }
}

/// gtk_primary_selection: the same primary selection behind GTK 3's older protocol.
@Suite struct GtkPrimarySelectionTests {
    @Test func textSelectedInAGtkClientIsPastedInAZwpClient() throws {
        let server = try TestServer()
        let gtk = try PrimaryClient(server, x: 0, protocol: .gtk)
        let zwp = try PrimaryClient(server, x: 100)
        gtk.window.makeKey()
        gtk.client.roundtrip()
        let source = try gtk.select("from GTK 3", types: ["text/plain"])
        zwp.window.makeKey()
        zwp.client.roundtrip()
        #expect(zwp.device.selectionMimeTypes == ["text/plain"])
        let fd = try #require(zwp.device.receiveSelection("text/plain"))
        defer { close(fd) }
        zwp.client.roundtrip()
        gtk.client.roundtrip()
        #expect(source.sendRequests == ["text/plain"])
        zwp.client.roundtrip()
        let (bytes, eof) = readToEnd(fd, stepping: zwp.client)
        #expect(String(decoding: bytes, as: UTF8.self) == "from GTK 3")
        #expect(eof)
    }

    @Test func textSelectedInAZwpClientIsPastedInAGtkClient() throws {
        let server = try TestServer()
        let zwp = try PrimaryClient(server, x: 0)
        let gtk = try PrimaryClient(server, x: 100, protocol: .gtk)
        zwp.window.makeKey()
        zwp.client.roundtrip()
        let source = try zwp.select("from GTK 4")
        gtk.window.makeKey()
        gtk.client.roundtrip()
        #expect(gtk.device.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        let fd = try #require(gtk.device.receiveSelection("text/plain;charset=utf-8"))
        defer { close(fd) }
        gtk.client.roundtrip()
        zwp.client.roundtrip()
        #expect(source.sendRequests == ["text/plain;charset=utf-8"])
        gtk.client.roundtrip()
        let (bytes, _) = readAvailable(fd)
        #expect(String(decoding: bytes, as: UTF8.self) == "from GTK 4")
    }

    @Test func oneClientWithBothDevicesGetsTheSelectionOnBoth() throws {
        let server = try TestServer()
        let gtk = try PrimaryClient(server, x: 0, protocol: .gtk)
        let zwpManager = try gtk.client.bind(zwp_primary_selection_device_manager_v1_interface_ptr(), version: 1)
        let zwpDevice = try TestPrimarySelectionDevice(manager: zwpManager, seat: gtk.seat.seat)
        gtk.client.roundtrip()
        // Kept alive: the source's listener data is the object.
        let source = try gtk.select("both", types: ["text/plain"])
        #expect(gtk.device.selectionMimeTypes == ["text/plain"])
        #expect(zwpDevice.selectionMimeTypes == ["text/plain"])
        withExtendedLifetime(source) {}
    }

    @Test func aZwpSelectionReplacesAGtkOneAndCancelsItsSource() throws {
        let server = try TestServer()
        let gtk = try PrimaryClient(server, x: 0, protocol: .gtk)
        let zwp = try PrimaryClient(server, x: 100)
        gtk.window.makeKey()
        gtk.client.roundtrip()
        let old = try gtk.select("old", types: ["text/plain"])
        zwp.window.makeKey()
        zwp.client.roundtrip()
        let new = try zwp.select("new")  // kept alive: it answers `send`
        gtk.client.roundtrip()
        #expect(old.cancelled)
        gtk.window.makeKey()
        gtk.client.roundtrip()
        let fd = try #require(gtk.device.receiveSelection("text/plain"))
        defer { close(fd) }
        gtk.client.roundtrip()
        zwp.client.roundtrip()
        gtk.client.roundtrip()
        #expect(String(decoding: readAvailable(fd).bytes, as: UTF8.self) == "new")
        #expect(new.sendRequests == ["text/plain"])
    }

    @Test func aGtkSelectionFromABackgroundClientIsRefused() throws {
        let server = try TestServer()
        let gtk = try PrimaryClient(server, x: 0, protocol: .gtk)
        let key = try PrimaryClient(server, x: 100)
        let source = try TestPrimarySelectionSource(
            manager: gtk.manager, mimeTypes: ["text/plain"], payload: [1], protocol: .gtk)
        gtk_primary_selection_device_set_selection(gtk.device.device, source.source, 0)
        gtk.client.roundtrip()
        #expect(source.cancelled)
        withExtendedLifetime(key) {}
    }
}
