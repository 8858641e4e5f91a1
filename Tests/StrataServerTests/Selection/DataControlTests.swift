import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A client with a seat and a data control device, and no surface (wl-copy, wl-paste, a
/// clipboard manager).
final class ControlClient {
    let control: TestDataControl
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer, flavor: TestDataControl.Flavor, version: UInt32? = nil) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        control = try TestDataControl(client: client, seat: seat.seat, flavor: flavor, version: version)
        client.roundtrip()
        self.seat = seat
        self.client = client
    }

    /// A source of `text` set as the clipboard (or the primary selection).
    func copy(_ text: String, primary: Bool = false, types: [String] = ["text/plain;charset=utf-8", "text/plain"])
        throws -> TestDataControlSource
    {
        let source = try control.makeSource(mimeTypes: types, payload: Array(text.utf8))
        control.set(source, primary: primary)
        client.roundtrip()
        return source
    }
}

/// zwlr_data_control_manager_v1 (v2) and ext_data_control_manager_v1: the clipboard and the
/// primary selection read and set without a surface or the keyboard focus, through the seat's
/// `Selection`s, so the focused client's wl_data_device and primary selection device see the
/// same thing.
@Suite struct DataControlTests {
    static let flavors: [TestDataControl.Flavor] = [.wlr, .ext]

    @Test(arguments: flavors)
    func theFirstSelectionEventsArriveWhenTheDeviceIsMade(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let reader = try ControlClient(server, flavor: flavor)
        #expect(reader.control.selectionEvents == 1 && reader.control.selection == nil)
        #expect(reader.control.primarySelectionEvents == 1 && reader.control.primarySelection == nil)
    }

    @Test(arguments: flavors)
    func aClientWithoutASurfaceReadsWhatTheFocusedClientCopied(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let app = try ClipboardClient(server, x: 0)
        let reader = try ControlClient(server, flavor: flavor)
        let source = try app.offer("copied in the app")
        #expect(!source.cancelled)
        reader.client.roundtrip()
        #expect(reader.control.selectionEvents == 2)
        #expect(reader.control.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        let fd = try #require(reader.control.receive("text/plain"))
        defer { close(fd) }
        reader.client.roundtrip()
        app.client.roundtrip()
        #expect(source.sendRequests == ["text/plain"])
        let (bytes, eof) = readToEnd(fd, stepping: reader.client)
        #expect(String(decoding: bytes, as: UTF8.self) == "copied in the app")
        #expect(eof)
    }

    @Test(arguments: flavors)
    func whatAClientWithoutASurfaceCopiesIsPastedInTheFocusedClient(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let app = try ClipboardClient(server, x: 0)
        app.client.roundtrip()
        let copier = try ControlClient(server, flavor: flavor)
        let source = try copier.copy("from wl-copy")
        app.client.roundtrip()
        #expect(app.device.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        let fd = try #require(app.device.receiveSelection("text/plain;charset=utf-8"))
        defer { close(fd) }
        app.client.roundtrip()
        copier.client.roundtrip()
        #expect(source.sendRequests == ["text/plain;charset=utf-8"])
        let (bytes, eof) = readToEnd(fd, stepping: app.client)
        #expect(String(decoding: bytes, as: UTF8.self) == "from wl-copy")
        #expect(eof)
        // Its own device is told too (it is a watcher like any other).
        #expect(copier.control.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
    }

    @Test(arguments: flavors)
    func thePrimarySelectionGoesBothWaysApartFromTheClipboard(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let app = try PrimaryClient(server, x: 0)
        let control = try ControlClient(server, flavor: flavor)
        let selected = try app.select("selected in the app")
        control.client.roundtrip()
        #expect(control.control.primarySelectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        #expect(control.control.selection == nil)
        let fd = try #require(control.control.receive("text/plain", primary: true))
        defer { close(fd) }
        control.client.roundtrip()
        app.client.roundtrip()
        #expect(selected.sendRequests == ["text/plain"])
        #expect(String(decoding: readAvailable(fd).bytes, as: UTF8.self) == "selected in the app")

        let source = try control.copy("primary from control", primary: true)
        app.client.roundtrip()
        #expect(selected.cancelled)
        #expect(app.device.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
        let fd2 = try #require(app.device.receiveSelection("text/plain"))
        defer { close(fd2) }
        app.client.roundtrip()
        control.client.roundtrip()
        #expect(source.sendRequests == ["text/plain"])
        #expect(String(decoding: readAvailable(fd2).bytes, as: UTF8.self) == "primary from control")
        #expect(control.control.selection == nil)
    }

    @Test func aVersionOneWlrDeviceHearsNothingOfThePrimarySelection() throws {
        let server = try TestServer()
        let app = try PrimaryClient(server, x: 0)
        let control = try ControlClient(server, flavor: .wlr, version: 1)
        #expect(control.control.version == 1)
        _ = try app.select("primary")
        control.client.roundtrip()
        #expect(control.control.primarySelectionEvents == 0)
        #expect(control.control.selectionEvents == 1)
    }

    @Test(arguments: flavors)
    func settingNullClearsTheSelectionAndReplacingCancelsTheOldSource(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let app = try ClipboardClient(server, x: 0)
        let control = try ControlClient(server, flavor: flavor)
        let first = try app.offer("first")
        let second = try control.copy("second")
        app.client.roundtrip()
        #expect(first.cancelled)
        #expect(app.device.selection != nil)
        control.control.set(nil)
        control.client.roundtrip()
        app.client.roundtrip()
        #expect(second.cancelled)
        #expect(app.device.selection == nil)
        #expect(control.control.selection == nil)
    }

    @Test(arguments: flavors)
    func aCopierThatDiesClearsTheSelectionAndItsOffersAreInert(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let app = try ClipboardClient(server, x: 0)
        var copier: ControlClient? = try ControlClient(server, flavor: flavor)
        _ = try copier?.copy("gone soon")
        app.client.roundtrip()
        #expect(app.device.selection != nil)
        copier = nil
        app.client.roundtrip()
        #expect(app.device.selection == nil)
    }

    @Test(arguments: flavors)
    func usingASourceTwiceIsAUsedSourceError(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let control = try ControlClient(server, flavor: flavor)
        let source = try control.copy("once")
        control.control.set(source, primary: true)
        #expect(!control.client.roundtrip())
        let code =
            flavor == .wlr
            ? ZWLR_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue
            : EXT_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue
        #expect(control.client.protocolError?.code == code)
        #expect(
            control.client.protocolError?.interface
                == (flavor == .wlr ? "zwlr_data_control_device_v1" : "ext_data_control_device_v1"))
    }

    @Test(arguments: flavors)
    func anOfferAfterTheSourceWasSetIsAnInvalidOfferError(flavor: TestDataControl.Flavor) throws {
        let server = try TestServer()
        let control = try ControlClient(server, flavor: flavor)
        let source = try control.copy("set")
        source.offer("text/html")
        #expect(!control.client.roundtrip())
        let code =
            flavor == .wlr
            ? ZWLR_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER.rawValue
            : EXT_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER.rawValue
        #expect(control.client.protocolError?.code == code)
        #expect(
            control.client.protocolError?.interface
                == (flavor == .wlr ? "zwlr_data_control_source_v1" : "ext_data_control_source_v1"))
    }

    @Test func aSourceOfTooManyMimeTypesIsNoMemory() throws {
        let server = try TestServer()
        let control = try ControlClient(server, flavor: .ext)
        _ = try control.control.makeSource(
            mimeTypes: (0...ClientBudget.maxMimeTypesPerSource).map { "x-type/\($0)" }, payload: [])
        #expect(!control.client.roundtrip())
        // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
        #expect(control.client.connectionError == ENOMEM)
    }

    @Test func moreThanTheCapOfDevicesIsNoMemoryAndTheOthersGoOn() throws {
        let server = try TestServer()
        let hostile = try ControlClient(server, flavor: .wlr)
        let watcher = try ControlClient(server, flavor: .ext)
        let manager = hostile.control.manager
        for _ in 1..<ClientBudget.maxSelectionWatchersPerClient {
            _ = zwlr_data_control_manager_v1_get_data_device(manager, hostile.seat.seat)
        }
        #expect(hostile.client.roundtrip())
        _ = zwlr_data_control_manager_v1_get_data_device(manager, hostile.seat.seat)
        #expect(!hostile.client.roundtrip())
        // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
        #expect(hostile.client.connectionError == ENOMEM)
        _ = try watcher.copy("still works")
        #expect(watcher.control.selectionMimeTypes == ["text/plain;charset=utf-8", "text/plain"])
    }

    @Test func onlyTheNewestOfABurstReachesADataControlReaderThatDoesNotRead() throws {
        let server = try TestServer()
        let hostile = try ControlClient(server, flavor: .wlr)
        let reader = try ControlClient(server, flavor: .ext)
        let eventsBefore = reader.control.selectionEvents
        var sources: [TestDataControlSource] = []
        var lastTypes: [String] = []
        for burst in 0..<40 {
            lastTypes = IsolationTests.typesAtTheCap("control\(burst)")
            let source = try hostile.control.makeSource(mimeTypes: lastTypes, payload: [1])
            hostile.control.set(source)
            // Only the hostile client and the server run: the reader reads nothing meanwhile.
            #expect(hostile.client.roundtrip())
            sources.append(source)
        }
        #expect(reader.client.wait { reader.control.selectionMimeTypes.elementsEqual(lastTypes) })
        #expect(reader.client.roundtrip(), "the reader is still served")
        #expect(reader.client.connectionError == 0)
        #expect(reader.client.protocolError == nil)
        #expect(
            reader.control.selectionEvents - eventsBefore < 40,
            "offers the reader had no room for were replaced by the last")
        #expect(sources.dropLast().allSatisfy { $0.cancelled })
        #expect(hostile.client.protocolError == nil)
    }

    @Test func aDataControlClientThatDisconnectsLeavesNoObjectsBehind() throws {
        let server = try TestServer()
        let app = try ClipboardClient(server, x: 0)
        _ = try app.offer("kept")
        server.step()
        let baseline = server.liveCounts
        do {
            let control = try ControlClient(server, flavor: .ext)
            let wlr = try TestDataControl(client: control.client, seat: control.seat.seat, flavor: .wlr)
            _ = try control.copy("primary", primary: true)
            _ = try wlr.makeSource(mimeTypes: ["text/plain"], payload: [])
            #expect(control.client.roundtrip())
            #expect(control.control.selection != nil && wlr.selection != nil)
        }
        server.expectLiveCounts(backAt: baseline)
        // The clipboard is untouched; the primary selection the client held is cleared.
        _ = try app.offer("after the watcher left")
        #expect(app.client.roundtrip())
    }
}
