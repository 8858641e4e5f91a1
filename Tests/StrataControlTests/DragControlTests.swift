import CStrataClientGlue
import CWaylandClient
import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Drag and drop driven by the control socket's input commands (what `strata-ctl input` sends),
/// and its lines in a trace.
@Suite struct DragControlTests {
    /// A client with a pointer, a data device and a 40×40 window at (x, 0).
    final class Party {
        let surface: TestSurface
        let window: Window?
        let device: TestDataDevice
        let manager: OpaquePointer
        let seat: TestSeat
        let client: TestClient

        init(_ server: TestServer, x: Int) throws {
            let client = try TestClient(server: server)
            let seat = try TestSeat(client: client)
            seat.getPointer()
            let manager = try client.bind(wl_data_device_manager_interface_ptr(), version: 3)
            device = try TestDataDevice(manager: manager, seat: seat.seat)
            let surface = try client.makeSurface(width: 40, height: 40)
            window = client.showPlainSurface(surface, x: x, y: 0)
            self.surface = surface
            self.manager = manager
            self.seat = seat
            self.client = client
        }
    }

    @Test func aPressMotionsAndAReleaseFromTheControlSocketDragAndDropAndAreTraced() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/drag.trace"
        let a = try Party(harness.server, x: 0)
        let b = try Party(harness.server, x: 100)
        let control = try harness.connect()
        #expect(try control.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        #expect(try control.request(["command": "pointer-move", "x": 10, "y": 10]).isOK)
        #expect(try control.request(["command": "pointer-button", "button": "left", "state": "down"]).isOK)
        a.client.roundtrip()
        let source = try TestDataSource(
            manager: a.manager, mimeTypes: ["text/plain"], payload: Array("by control".utf8))
        wl_data_source_set_actions(source.source, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue)
        wl_data_device_start_drag(a.device.device, source.source, a.surface.surface, nil, a.seat.lastPressSerial)
        a.client.roundtrip()
        for x in stride(from: 30, through: 120, by: 30) {
            #expect(try control.request(["command": "pointer-move", "x": .number(Double(x)), "y": 10]).isOK)
        }
        b.client.roundtrip()
        let offer = try #require(b.device.dragOffer)
        wl_data_offer_accept(offer, b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(
            offer, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue)
        b.client.roundtrip()
        #expect(try control.request(["command": "pointer-button", "button": "left", "state": "up"]).isOK)
        b.client.roundtrip()
        a.client.roundtrip()
        #expect(
            b.device.takeDragEvents().suffix(4) == [
                .enter(surface: b.surface.id, x: 20, y: 10, hasOffer: true), .action(1), .drop, .leave,
            ])
        #expect(source.dragEvents == ["target(text/plain)", "action(1)", "dnd_drop_performed"])
        #expect(try control.request(["command": "record", "action": "stop"]).isOK)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        let drags = lines.filter { $0["type"] == "drag" }
        #expect(drags.map { $0["event"]?.stringValue ?? "" } == ["start", "enter", "leave", "enter", "leave", "end"])
        #expect(drags.first?["source"] == true && drags.first?["icon"] == false && drags.first?["touch_id"] == nil)
        #expect(drags[1]["window"]?.intValue == (a.window?.id.rawValue).map { Int($0) })
        #expect(drags[3]["window"]?.intValue == (b.window?.id.rawValue).map { Int($0) })
        #expect(drags.last?["reason"] == "dropped" && drags.last?["action"] == "copy")
        #expect(drags.last?["during_command"] == true)
    }

    @Test func aTouchDownMotionsAndUpFromTheControlSocketDragAndDrop() throws {
        let harness = try ControlHarness()
        let a = try Party(harness.server, x: 0)
        let b = try Party(harness.server, x: 100)
        _ = a.seat.getTouch()
        a.client.roundtrip()
        let control = try harness.connect()
        #expect(try control.request(["command": "touch", "phase": "down", "touch_id": 7, "x": 10, "y": 10]).isOK)
        a.client.roundtrip()
        let source = try TestDataSource(manager: a.manager, mimeTypes: ["text/plain"], payload: Array("by touch".utf8))
        wl_data_source_set_actions(source.source, WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue)
        wl_data_device_start_drag(a.device.device, source.source, a.surface.surface, nil, a.seat.lastPressSerial)
        a.client.roundtrip()
        #expect(try control.request(["command": "touch", "phase": "move", "touch_id": 7, "x": 120, "y": 20]).isOK)
        b.client.roundtrip()
        let offer = try #require(b.device.dragOffer)
        wl_data_offer_accept(offer, b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue, 0)
        b.client.roundtrip()
        #expect(try control.request(["command": "touch", "phase": "up", "touch_id": 7]).isOK)
        b.client.roundtrip()
        a.client.roundtrip()
        #expect(
            b.device.takeDragEvents() == [
                .sourceActions(2), .enter(surface: b.surface.id, x: 20, y: 20, hasOffer: true),
                .action(2), .drop, .leave,
            ])
        #expect(source.dragEvents == ["target(text/plain)", "action(2)", "dnd_drop_performed"])
    }
}
