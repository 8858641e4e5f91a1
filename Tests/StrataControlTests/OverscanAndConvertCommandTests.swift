import Foundation
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer
import Testing

/// `screen-overscan`, `screen-add` with an overscan, `convert`, and `screenshot` as shown or raw.
@Suite struct OverscanAndConvertCommandTests {
    @Test func screenOverscanSetsTheCompensationAndReportsIt() throws {
        let harness = try ControlHarness()
        let reply = try harness.request([
            "command": "screen-overscan", "screen": "HEADLESS-1", "compensation": "inset", "percent": 10,
        ])
        #expect(reply.isOK)
        let info = try #require(try reply["screen"]?.decode(ScreenInfo.self))
        #expect(info.overscan == 10 && info.overscanCompensation == "inset")
        #expect(info.bounds.size == Size(width: 576, height: 432))
        // Without a percent the screen keeps its overscan.
        let again = try harness.request(["command": "screen-overscan", "screen": 1, "compensation": "none"])
        let after = try #require(try again["screen"]?.decode(ScreenInfo.self))
        #expect(after.overscan == 10 && after.overscanCompensation == "none")
        #expect(after.bounds.size == Size(width: 640, height: 480))
    }

    @Test func badOverscanRequestsAreInvalidArgumentsAndChangeNothing() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        let bad: [[String: JSONValue]] = [
            ["compensation": "shrink"], ["compensation": "scale", "percent": 21],
            ["compensation": "scale", "percent": -1],
            ["compensation": "scale", "percent": "lots"], ["compensation": 3],
        ]
        for fields in bad {
            var request = fields
            request["command"] = "screen-overscan"
            request["screen"] = 1
            #expect(try client.request(request).errorCode == "invalid_argument", "\(fields)")
        }
        #expect(try client.request(["command": "screen-overscan", "screen": 1]).errorCode == "missing_argument")
        #expect(
            try client.request(["command": "screen-overscan", "screen": 9, "compensation": "scale"]).errorCode
                == "unknown_screen")
        let screen = harness.server.compositor.scene.outputs[0].screen
        #expect(screen.overscan == 0 && screen.overscanCompensation == .scale)
        #expect(try client.request(["command": "screen-add", "overscan": 50]).errorCode == "invalid_argument")
        #expect(
            try client.request(["command": "screen-add", "overscan": 5, "compensation": "wide"]).errorCode
                == "invalid_argument")
        #expect(harness.server.compositor.scene.outputs.count == 1)
    }

    @Test func screenAddWithAnOverscanConnectsAnOverscanningScreen() throws {
        let harness = try ControlHarness()
        let reply = try harness.request([
            "command": "screen-add", "size": "400x200", "overscan": 5, "compensation": "inset",
        ])
        let info = try #require(try reply["screen"]?.decode(ScreenInfo.self))
        #expect(info.overscan == 5 && info.overscanCompensation == "inset")
        #expect(info.bounds.size == Size(width: 380, height: 190))
    }

    @Test func screenOverscanIsAnEvent() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        let sequence = try #require(try client.request(["command": "hello"])["sequence"]?.intValue)
        #expect(
            try client.request(["command": "screen-overscan", "screen": 1, "compensation": "scale", "percent": 3]).isOK)
        let events = try client.request(["command": "events", "since": JSONValue(sequence), "follow": false])
        let names = events["events"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names == ["screenDidChangeOverscan"])
    }

    @Test func convertGivesPointsAndRectanglesInScreenWindowAndOtherScreenCoordinates() throws {
        let harness = try ControlHarness(screens: 2)
        let a = harness.window("a")  // 10,10 on screen 1 (640×480 at 0,0; screen 2 at 640,0)
        let b = harness.window("b")
        let second = harness.server.compositor.scene.outputs[1].screen
        #expect(harness.windows.move(b, to: second, origin: Point(x: 30, y: 40)))
        let client = try harness.connect()
        func text(_ fields: [String: JSONValue]) throws -> String? {
            var request = fields
            request["command"] = "convert"
            return try client.request(request)["text"]?.stringValue
        }
        #expect(try text(["window": "a", "x": 5, "y": 6]) == "15,16")
        #expect(try text(["window": "a", "x": 5, "y": 6, "width": 20, "height": 10]) == "15,16,20x10")
        #expect(try text(["window": "a", "x": 0.5, "y": 0, "to": "b"]) == "-659.5,-30")
        #expect(try text(["window": "b", "x": -659.5, "y": -30, "from": "a"]) == "-1319.5,-60")
        #expect(try text(["window": "a", "x": 0, "y": 0, "to_screen": "HEADLESS-2"]) == "-630,10")
        #expect(try text(["window": "b", "x": 1310, "y": 10, "from_screen": 2]) == "1280,-30")
        #expect(try text(["window": "b", "x": 10, "y": 10, "from_screen": 1]) == "-660,-30")
        withExtendedLifetime(a) {}
    }

    @Test func badConvertRequestsAreClearErrors() throws {
        let harness = try ControlHarness()
        harness.window("a")
        let client = try harness.connect()
        let bad: [[String: JSONValue]] = [
            ["x": "left", "y": 0], ["x": 1e12, "y": 0], ["x": 0, "y": 0, "width": 5],
            ["x": 0, "y": 0, "width": -1, "height": 2], ["x": 0, "y": 0, "width": 1.5, "height": 2],
            ["x": 0, "y": 0, "to": "a", "to_screen": 1], ["x": 0, "y": 0, "from": "a", "from_screen": 1],
        ]
        for fields in bad {
            var request = fields
            request["command"] = "convert"
            request["window"] = "a"
            #expect(try client.request(request).errorCode == "invalid_argument", "\(fields)")
        }
        #expect(try client.request(["command": "convert", "window": "a", "x": 0]).errorCode == "missing_argument")
        #expect(try client.request(["command": "convert", "window": 99, "x": 0, "y": 0]).errorCode == "unknown_window")
        #expect(
            try client.request(["command": "convert", "window": "a", "x": 0, "y": 0, "to": 99]).errorCode
                == "unknown_window")
        #expect(
            try client.request(["command": "convert", "window": "a", "x": 0, "y": 0, "to_screen": "NOPE"]).errorCode
                == "unknown_screen")
    }

    @Test func aPointerMovedToAShownPixelLandsOnTheLogicalPointShownThere() throws {
        let harness = try ControlHarness()  // 640×480
        let client = try harness.connect()
        #expect(
            try client.request(["command": "screen-overscan", "screen": 1, "compensation": "scale", "percent": 10]).isOK
        )
        // Safe area 32,24 576×432: shown pixel (32 + 288, 24 + 216) is logical (320, 240).
        let reply = try client.request(["command": "pointer-move", "x": 320, "y": 240, "shown": true])
        #expect(reply["x"]?.doubleValue == 320 && reply["y"]?.doubleValue == 240)
        let corner = try client.request(["command": "pointer-move", "x": 32, "y": 24, "shown": true])
        #expect(corner["x"]?.doubleValue == 0 && corner["y"]?.doubleValue == 0)
        let far = try client.request(["command": "pointer-move", "x": 607.1, "y": 24, "shown": true])
        #expect(far["x"]?.doubleValue.map { abs($0 - 639) < 0.01 } == true)
        // The border is not part of the picture.
        #expect(
            try client.request(["command": "pointer-move", "x": 10, "y": 240, "shown": true]).errorCode
                == "invalid_argument")
        #expect(
            try client.request(["command": "pointer-move", "x": 320, "y": 470, "shown": true]).errorCode
                == "invalid_argument")
        #expect(
            try client.request(["command": "pointer-move", "x": 320, "y": 240, "shown": "sideways"]).errorCode
                == "invalid_argument")
    }

    @Test func screenshotWritesWhatIsShownAndRawWritesTheCanvas() throws {
        let harness = try ControlHarness()
        harness.server.compositor.scene.backgroundARGB = 0xff80_8080
        #expect(try harness.request(["command": "screen-brightness", "screen": 1, "value": 0.5]).isOK)
        #expect(
            try harness.request(["command": "screen-overscan", "screen": 1, "compensation": "scale", "percent": 10])
                .isOK)
        let shown = harness.directory + "/shown.png", raw = harness.directory + "/raw.png"
        let reply = try harness.request(["command": "screenshot", "path": .string(shown)])
        #expect(reply["raw"]?.boolValue == false)
        #expect(
            try harness.request(["command": "screenshot", "path": .string(raw), "raw": true])["raw"]?.boolValue == true)
        let a = try PNGFile.read(path: shown), b = try PNGFile.read(path: raw)
        #expect(a.width == 640 && a.height == 480 && b.width == 640 && b.height == 480)
        #expect(a.at(0, 0) == 0xff00_0000)  // the overscan border
        #expect(a.at(320, 240) == 0xff40_4040)  // dimmed to half
        #expect(b.at(0, 0) == 0xff80_8080 && b.at(320, 240) == 0xff80_8080)
        #expect(
            try harness.request(["command": "screenshot", "path": .string(raw), "raw": "maybe"]).errorCode
                == "invalid_argument")
    }
}
