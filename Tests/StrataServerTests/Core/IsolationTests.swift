import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Isolation: what one client sends another through Strata (selection offers, a text field's
/// state for the input method) is bounded, so a client that reads slowly is not dropped because
/// of someone else's burst (libwayland 1.21 drops a client whose socket is full).
@Suite struct IsolationTests {
    /// 128 MIME types of 112 bytes: one source at the byte cap (16 KiB of offer events).
    static func typesAtTheCap(_ tag: String) -> [String] {
        (0..<ClientBudget.maxMimeTypesPerSource).map { index in
            let head = "x-\(tag)/\(index)-"
            return head + String(repeating: "m", count: 112 - head.utf8.count)
        }
    }

    @Test func aSlowReaderGetsTheKeyClientsWholeOfferAtTheCap() throws {
        let server = try TestServer()
        let key = try ClipboardClient(server, x: 0)
        let reader = try ClipboardClient(server, x: 100)
        key.window.makeKey()
        key.client.roundtrip()
        let types = Self.typesAtTheCap("cap")
        let source = try key.offer("payload", types: types)
        #expect(!source.cancelled)
        #expect(key.client.protocolError == nil)
        #expect(key.device.selectionMimeTypes.count == types.count)
        reader.window.makeKey()
        // The reader does not read while the server sends it the offer.
        for _ in 0..<5 { server.step() }
        #expect(reader.client.roundtrip())
        #expect(reader.client.connectionError == 0)
        #expect(reader.device.selectionMimeTypes.count == types.count)
        #expect(reader.device.selectionMimeTypes.elementsEqual(types), "every type, in order")
    }

    /// A client with an old input serial sets 40 selections of 16 KiB each (640 KiB of offers,
    /// three times a socket's buffer) while a slow reader is key and does not read: the reader
    /// stays connected and gets the last selection, whole.
    @Test func anotherClientsSelectionBurstDoesNotDropASlowReader() throws {
        let server = try TestServer()
        let hostile = try ClipboardClient(server, x: 0)
        let reader = try ClipboardClient(server, x: 100)
        hostile.window.makeKey()
        server.compositor.seat.key(KEY_A, pressed: true, time: 1)
        hostile.client.roundtrip()
        let serial = hostile.seat.lastSerial
        server.compositor.seat.key(KEY_A, pressed: false, time: 2)
        reader.window.makeKey()
        #expect(reader.client.roundtrip())
        let eventsBefore = reader.device.selectionEvents
        var sources: [TestDataSource] = []
        var lastTypes: [String] = []
        for burst in 0..<40 {
            lastTypes = Self.typesAtTheCap("burst\(burst)")
            let source = try TestDataSource(manager: hostile.manager, mimeTypes: lastTypes, payload: [1])
            wl_data_device_set_selection(hostile.device.device, source.source, serial)
            // Only the hostile client and the server run: the reader reads nothing meanwhile.
            #expect(hostile.client.roundtrip())
            sources.append(source)
        }
        #expect(server.compositor.seat.keyboardFocus?.client == reader.client.serverClient)
        #expect(reader.client.wait { reader.device.selectionMimeTypes.elementsEqual(lastTypes) })
        #expect(reader.client.roundtrip(), "the reader is still served")
        #expect(reader.client.connectionError == 0)
        #expect(reader.client.protocolError == nil)
        #expect(reader.device.selectionMimeTypes.last == lastTypes.last)
        #expect(reader.device.selectionMimeTypes.count == lastTypes.count)
        #expect(
            reader.device.selectionEvents - eventsBefore < 40,
            "offers the reader had no room for were replaced by the last")
        #expect(sources.dropLast().allSatisfy { $0.cancelled })
        #expect(hostile.client.protocolError == nil)
    }

    /// The same burst through the primary selection (zwp_primary_selection).
    @Test func anotherClientsPrimarySelectionBurstDoesNotDropASlowReader() throws {
        let server = try TestServer()
        let hostile = try PrimaryClient(server, x: 0)
        let reader = try PrimaryClient(server, x: 100)
        hostile.window.makeKey()
        server.compositor.seat.key(KEY_A, pressed: true, time: 1)
        hostile.client.roundtrip()
        let serial = hostile.seat.lastSerial
        server.compositor.seat.key(KEY_A, pressed: false, time: 2)
        reader.window.makeKey()
        #expect(reader.client.roundtrip())
        var sources: [TestPrimarySelectionSource] = []
        var lastTypes: [String] = []
        for burst in 0..<40 {
            lastTypes = Self.typesAtTheCap("primary\(burst)")
            let source = try TestPrimarySelectionSource(manager: hostile.manager, mimeTypes: lastTypes, payload: [1])
            zwp_primary_selection_device_v1_set_selection(hostile.device.device, source.source, serial)
            #expect(hostile.client.roundtrip())
            sources.append(source)
        }
        #expect(reader.client.wait { reader.device.selectionMimeTypes.elementsEqual(lastTypes) })
        #expect(reader.client.roundtrip(), "the reader is still served")
        #expect(reader.client.connectionError == 0)
        #expect(reader.client.protocolError == nil)
        #expect(reader.device.selectionMimeTypes.count == lastTypes.count)
        #expect(sources.dropLast().allSatisfy { $0.cancelled })
        #expect(hostile.client.protocolError == nil)
    }

    /// A key client's text field commits 100 surrounding texts of 3.9 KB (390 KB of events for
    /// the input method) while the input method does not read: it stays connected and gets the
    /// last state.
    @Test func aTextFieldsBurstDoesNotDropASlowInputMethod() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.client.roundtrip()
        app.enable()
        #expect(im.events().contains(.activate))
        let text = String(repeating: "t", count: 3900)
        for n in 0..<100 {
            zwp_text_input_v3_set_surrounding_text(app.textInput.textInput, "\(n):" + text, 0, 0)
            app.textInput.commit()
            // Only the text field's client and the server run: the input method reads nothing.
            #expect(app.client.roundtrip())
        }
        var last: String?
        #expect(
            im.client.wait {
                for event in im.inputMethod.takeEvents() {
                    if case .surroundingText(let text, _, _) = event { last = text }
                }
                return last?.hasPrefix("99:") == true
            })
        #expect(im.client.roundtrip(), "the input method is still served")
        #expect(im.client.connectionError == 0)
        #expect(im.client.protocolError == nil)
        #expect(last == "99:" + text)
    }
}
