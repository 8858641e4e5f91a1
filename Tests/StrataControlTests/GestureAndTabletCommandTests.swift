import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataControlProtocol
import StrataServer
import StrataTestSupport
import Testing

/// `gesture` and `tablet` (strata-ctl input swipe|pinch|hold|tablet): input through the seat,
/// with clear errors on bad arguments.
@Suite struct GestureAndTabletCommandTests {
    @Test func aSwipeAndAPinchReachTheClientUnderThePointer() throws {
        let harness = try ControlHarness()
        let wayland = try TestClient(server: harness.server)
        let seat = try TestSeat(client: wayland)
        let gestures = try TestPointerGestures(client: wayland)
        let pointer = try #require(seat.getPointer())
        _ = try #require(gestures.swipe(pointer: pointer))
        _ = try #require(gestures.pinch(pointer: pointer))
        let surface = try wayland.makeSurface(width: 50, height: 50)
        let window = try #require(wayland.showPlainSurface(surface, x: 0, y: 0))
        #expect(try harness.request(["command": "pointer-move", "x": 5, "y": 5]).isOK)
        let begun = try harness.request(["command": "gesture", "kind": "swipe", "phase": "begin", "fingers": 3])
        #expect(begun["in_progress"] == "swipe" && begun["window"]?.intValue == Int(window.id.rawValue))
        #expect(
            try harness.request(["command": "gesture", "kind": "swipe", "phase": "update", "dx": -3, "dy": 4.5]).isOK)
        #expect(try harness.request(["command": "gesture", "kind": "swipe", "phase": "end"])["in_progress"] == .null)
        #expect(try harness.request(["command": "gesture", "kind": "pinch", "phase": "begin", "fingers": 2]).isOK)
        #expect(
            try harness.request([
                "command": "gesture", "kind": "pinch", "phase": "update", "scale": 1.5, "rotation": -20,
            ]).isOK)
        #expect(try harness.request(["command": "gesture", "kind": "pinch", "phase": "cancel"]).isOK)
        wayland.roundtrip()
        #expect(
            gestures.takeEvents() == [
                "swipe.begin(\(surface.id), 3)", "swipe.update(-3.0, 4.5)", "swipe.end(0)",
                "pinch.begin(\(surface.id), 2)", "pinch.update(0.0, 0.0, 1.5, -20.0)", "pinch.end(1)",
            ])
    }

    @Test(
        arguments: [
            (
                ["kind": "twirl", "phase": "begin", "fingers": 3],
                "\"twirl\" is not a gesture: use swipe, pinch or hold"
            ),
            (["kind": "swipe", "phase": "begin"], "gesture needs \"fingers\""),
            (["kind": "swipe", "phase": "begin", "fingers": 0], "\"fingers\" must be between 1 and 10"),
            (["kind": "swipe", "phase": "begin", "fingers": 1_000_000], "\"fingers\" must be between 1 and 10"),
            (
                ["kind": "swipe", "phase": "wiggle"],
                "\"wiggle\" is not a gesture phase: use begin, update, end or cancel"
            ),
            (["kind": "swipe", "phase": "update", "dx": 1], "no swipe gesture is in progress: begin one first"),
            (["kind": "hold", "phase": "update"], "a hold gesture has no update: use begin and end"),
            (["kind": "pinch", "phase": "end"], "no pinch gesture is in progress: begin one first"),
        ] as [([String: JSONValue], String)])
    func badGestureArgumentsAreRefusedWithAClearError(arguments: [String: JSONValue], message: String) throws {
        let harness = try ControlHarness()
        let reply = try harness.request(arguments.merging(["command": "gesture"]) { $1 })
        #expect(reply["ok"] == false)
        #expect(reply["error"]?["message"]?.stringValue == message)
        #expect(harness.server.compositor.seat.pointerGestureInProgress == nil)
    }

    @Test func absurdGestureNumbersAreRefused() throws {
        let harness = try ControlHarness()
        #expect(try harness.request(["command": "gesture", "kind": "pinch", "phase": "begin", "fingers": 2]).isOK)
        for (name, value) in [("dx", 1e12), ("dy", -1e12), ("scale", -1), ("scale", 1e9), ("rotation", 720)]
            as [(String, Double)]
        {
            let reply = try harness.request([
                "command": "gesture", "kind": "pinch", "phase": "update", .init(name): JSONValue(value),
            ])
            #expect(reply.errorCode == "invalid_argument", "\(name) \(value)")
        }
        let nan = try harness.request(["command": "gesture", "kind": "pinch", "phase": "update", "dx": "nan"])
        #expect(nan.errorCode == "invalid_argument")
        #expect(try harness.request(["command": "gesture", "kind": "swipe", "phase": "begin", "fingers": 3]).isOK)
        let swipeScale = try harness.request(["command": "gesture", "kind": "swipe", "phase": "update", "scale": 2])
        #expect(swipeScale["error"]?["message"]?.stringValue == "only a pinch has a scale and a rotation")
    }

    @Test func aPenComesInDrawsAndGoesOutOverTheWindowUnderIt() throws {
        let harness = try ControlHarness()
        let wayland = try TestClient(server: harness.server)
        let seat = try TestSeat(client: wayland)
        let tablet = try TestTabletSeat(client: wayland, seat: seat.seat)
        let surface = try wayland.makeSurface(width: 50, height: 50)
        let window = try #require(wayland.showPlainSurface(surface, x: 10, y: 10))
        let came = try harness.request(["command": "tablet", "phase": "in", "x": 20, "y": 30, "distance": 0.5])
        #expect(
            came["in_proximity"] == true && came["down"] == false && came["window"]?.intValue == Int(window.id.rawValue)
        )
        #expect(try harness.request(["command": "tablet", "phase": "down", "pressure": 0.5])["down"] == true)
        #expect(
            try harness.request(["command": "tablet", "phase": "move", "x": 21, "y": 31, "tilt_x": -10, "tilt_y": 20])
                .isOK)
        #expect(
            try harness.request(["command": "tablet", "phase": "button", "button": "stylus", "state": "down"]).isOK)
        #expect(try harness.request(["command": "tablet", "phase": "up"])["down"] == false)
        #expect(try harness.request(["command": "tablet", "phase": "out"])["in_proximity"] == false)
        wayland.roundtrip()
        let events = tablet.takeEvents().drop { $0 != "tool.proximity_in(\(surface.id))" }
        #expect(
            Array(events) == [
                "tool.proximity_in(\(surface.id))", "tool.motion(10.0, 20.0)", "tool.distance(32768)", "tool.frame",
                "tool.pressure(32768)", "tool.down", "tool.frame",
                "tool.motion(11.0, 21.0)", "tool.tilt(-10.0, 20.0)", "tool.frame",
                "tool.button(0x14b, 1)", "tool.frame",
                "tool.up", "tool.frame",
                "tool.button(0x14b, 0)", "tool.proximity_out", "tool.frame",
            ])
    }

    @Test(
        arguments: [
            (["phase": "hover"], "\"hover\" is not a tablet phase: use in, move, down, up, button, axes or out"),
            (["phase": "in", "x": 1], "tablet needs \"y\""),
            (["phase": "in", "x": 1, "y": 2e9], "\"x\" and \"y\" must be between -1000000 and 1000000"),
            (
                ["phase": "in", "x": 1, "y": 2, "tool": "crayon"],
                "\"crayon\" is not a tablet tool: use pen, eraser, brush, pencil, airbrush, finger, mouse, lens"
            ),
            (["phase": "in", "x": 1, "y": 2, "serial": -1], "\"serial\" must be between 0 and 9007199254740991"),
            (["phase": "in", "x": 1, "y": 2, "pressure": 2], "\"pressure\" must be between 0 and 1"),
            (["phase": "in", "x": 1, "y": 2, "tilt_x": 91], "\"tilt_x\" must be between -90 and 90"),
            (
                ["phase": "in", "x": 1, "y": 2, "slider": 0.5],
                "a pen has no slider axis (it has pressure, distance, tilt)"
            ),
            (
                ["phase": "in", "x": 1, "y": 2, "tool": "mouse", "pressure": 0.5],
                "a mouse has no pressure axis (it has distance, rotation, wheel)"
            ),
            (
                ["phase": "down"],
                "tablet down: the pen (serial 1) is not in proximity: move it in first (phase in, with x and y)"
            ),
            (
                ["phase": "out", "tool": "eraser"],
                "tablet out: the eraser (serial 1) is not in proximity: move it in first (phase in, with x and y)"
            ),
            (
                ["phase": "screen", "x": 1, "y": 1],
                "\"screen\" is not a tablet phase: use in, move, down, up, button, axes or out"
            ),
            (["phase": "in", "x": 1, "y": 1, "screen": "NOPE"], nil),
        ] as [([String: JSONValue], String?)])
    func badTabletArgumentsAreRefusedWithAClearError(arguments: [String: JSONValue], message: String?) throws {
        let harness = try ControlHarness()
        let reply = try harness.request(arguments.merging(["command": "tablet"]) { $1 })
        #expect(reply["ok"] == false)
        if let message { #expect(reply["error"]?["message"]?.stringValue == message) }
        #expect(harness.server.compositor.seat.tabletToolState(TabletToolDescription())?.inProximity != true)
    }

    @Test func aButtonOfABadNameOrStateIsRefused() throws {
        let harness = try ControlHarness()
        #expect(try harness.request(["command": "tablet", "phase": "in", "x": 1, "y": 1]).isOK)
        let name = try harness.request(["command": "tablet", "phase": "button", "button": "tip", "state": "down"])
        #expect(
            name["error"]?["message"]?.stringValue
                == "\"tip\" is not a tablet button: use stylus, stylus2, stylus3 or an evdev code")
        let state = try harness.request([
            "command": "tablet", "phase": "button", "button": "stylus", "state": "sideways",
        ])
        #expect(state["error"]?["message"]?.stringValue == "\"sideways\" is not a state: use down or up")
    }

    @Test func aSeventeenthToolIsRefused() throws {
        let harness = try ControlHarness()
        for serial in 1...Tablets.maximumTools {
            #expect(
                try harness.request(["command": "tablet", "phase": "in", "x": 1, "y": 1, "serial": JSONValue(serial)])
                    .isOK)
        }
        let refused = try harness.request(["command": "tablet", "phase": "in", "x": 1, "y": 1, "serial": 99])
        #expect(
            refused["error"]?["message"]?.stringValue
                == "the tablet has 16 tools already; use one of them (tool and serial)")
        #expect(try harness.request(["command": "tablet", "phase": "out", "serial": 16]).isOK)
    }

    @Test func gesturesAndTabletFramesAreRecordedInTheTraceLikeOtherInput() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/gestures.trace"
        let client = try harness.connect()
        #expect(try client.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        #expect(try client.request(["command": "gesture", "kind": "pinch", "phase": "begin", "fingers": 2]).isOK)
        #expect(
            try client.request([
                "command": "gesture", "kind": "pinch", "phase": "update", "dx": 1, "scale": 0.5, "rotation": 15,
            ]).isOK)
        #expect(try client.request(["command": "gesture", "kind": "pinch", "phase": "end", "cancelled": true]).isOK)
        #expect(
            try client.request([
                "command": "tablet", "phase": "in", "x": 20, "y": 30, "tool": "airbrush", "serial": 5, "slider": -0.5,
            ]).isOK)
        #expect(
            try client.request([
                "command": "tablet", "phase": "button", "tool": "airbrush", "serial": 5, "button": 331, "state": "down",
            ]).isOK)
        #expect(try client.request(["command": "record", "action": "stop"]).isOK)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let inputs = try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }.filter {
            $0["type"] == "input"
        }
        #expect(
            inputs.map { $0["input"]?.stringValue ?? "" } == [
                "gesture-begin", "gesture-update", "gesture-end", "tablet-tool", "tablet-tool",
            ])
        #expect(inputs[0]["kind"] == "pinch" && inputs[0]["fingers"]?.intValue == 2)
        #expect(
            inputs[1]["kind"] == "pinch" && inputs[1]["dx"]?.intValue == 1 && inputs[1]["scale"]?.doubleValue == 0.5
                && inputs[1]["rotation"]?.intValue == 15)
        #expect(inputs[2]["kind"] == "pinch" && inputs[2]["cancelled"] == true)
        #expect(
            inputs[3]["phase"] == "move" && inputs[3]["tool"] == "airbrush" && inputs[3]["serial"]?.intValue == 5
                && inputs[3]["x"]?.intValue == 20 && inputs[3]["screen"]?.intValue == 1
                && inputs[3]["slider"]?.doubleValue == -0.5)
        #expect(inputs[4]["phase"] == "button" && inputs[4]["button"]?.intValue == 331 && inputs[4]["state"] == "down")
        #expect(inputs.allSatisfy { $0["during_command"] == true })
    }
}
