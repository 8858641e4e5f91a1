import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import Testing

/// `screenshot` with `window` and `compare-screenshot`: a window's own pixels, and the golden
/// check against a baseline inside Strata.
@Suite struct CompareScreenshotCommandTests {
    /// A client window of one colour, `width`×`height`, at `origin` on the main screen.
    private func show(
        _ harness: ControlHarness, _ appID: String, argb: UInt32, width: Int32 = 100, height: Int32 = 80,
        at origin: Point
    ) throws -> (TestClient, TestToplevel, Window) {
        let client = try TestClient(server: harness.server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(toplevel.toplevel, appID)
        #expect(toplevel.map(width: width, height: height, argb: argb))
        let window = try #require(harness.windows.windows.first { $0.appID == appID })
        #expect(harness.windows.move(window, to: harness.windows.mainScreen!, origin: origin))
        return (client, toplevel, window)
    }

    @Test func aWindowsScreenshotIsItsOwnPixelsUnderAnotherWindowAndPartlyOffScreen() throws {
        let harness = try ControlHarness()
        let (c1, t1, below) = try show(harness, "below", argb: 0xff11_2233, at: Point(x: 10, y: 10))
        let (c2, t2, above) = try show(harness, "above", argb: 0xff44_5566, at: Point(x: 30, y: 30))
        let screen = harness.directory + "/screen.png"
        #expect(try harness.request(["command": "screenshot", "path": .string(screen)]).isOK)
        #expect(
            try PNGFile.read(path: screen).at(50, 50) & 0xff_ffff == 0x44_5566, "the other window covers it on screen")

        let path = harness.directory + "/below.png"
        let reply = try harness.request(["command": "screenshot", "path": .string(path), "window": "below"])
        #expect(reply["window"]?.intValue == Int(below.id.rawValue))
        #expect(reply["width"]?.intValue == 100 && reply["height"]?.intValue == 80)
        let pixels = try PNGFile.read(path: path)
        #expect(pixels.width == 100 && pixels.height == 80)
        #expect(Set(pixels.argb) == [0xff11_2233], "every pixel is the window's own colour")

        // Partly off screen (640x480): still the whole image.
        #expect(harness.windows.move(above, to: harness.windows.mainScreen!, origin: Point(x: 600, y: 450)))
        let off = harness.directory + "/above.png"
        #expect(
            try harness.request([
                "command": "screenshot", "path": .string(off), "window": .number(Double(above.id.rawValue)),
            ]).isOK)
        #expect(Set(try PNGFile.read(path: off).argb) == [0xff44_5566])
        withExtendedLifetime((c1, t1, c2, t2)) {}
    }

    @Test func aWindowsScreenshotNamesWhatIsWrongInWords() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/x.png"
        let unknown = try harness.request(["command": "screenshot", "path": .string(path), "window": "nobody"])
        #expect(unknown.errorCode == "unknown_window")
        _ = harness.window("undrawn")
        let undrawn = try harness.request(["command": "screenshot", "path": .string(path), "window": "undrawn"])
        #expect(undrawn.errorCode == "failed")
        #expect(undrawn["error"]?["message"]?.stringValue?.contains("has not drawn anything yet") == true)
        let (client, toplevel, window) = try show(harness, "shown", argb: 0xff00_ff00, at: Point(x: 0, y: 0))
        harness.windows.hide(window)
        defer { withExtendedLifetime((client, toplevel)) {} }
        let hidden = try harness.request(["command": "screenshot", "path": .string(path), "window": "shown"])
        #expect(hidden["error"]?["message"]?.stringValue?.contains("is hidden") == true)
        let both = try harness.request(["command": "screenshot", "path": .string(path), "window": "shown", "raw": true])
        #expect(both.errorCode == "invalid_argument")
        #expect(access(path, F_OK) != 0, "nothing was written")
    }

    @Test func aBaselineIsWrittenThenMatchedThenADifferentPictureFailsWithActualAndDiff() throws {
        let harness = try ControlHarness()
        let (client, toplevel, _) = try show(harness, "golden", argb: 0xff20_4060, at: Point(x: 50, y: 50))
        let cover = try show(harness, "cover", argb: 0xffff_ffff, at: Point(x: 60, y: 60))
        defer { withExtendedLifetime(cover) {} }
        let baseline = harness.directory + "/golden.png"
        let actual = harness.directory + "/actual.png", diff = harness.directory + "/diff.png"
        let missing = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
        ])
        #expect(missing.errorCode == "failed")
        #expect(missing["error"]?["message"]?.stringValue?.contains("there is no baseline \(baseline)") == true)

        let updated = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden", "update": true,
        ])
        #expect(updated["updated"] == true && updated["match"] == true)
        #expect(Set(try PNGFile.read(path: baseline).argb) == [0xff20_4060])

        let same = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
            "actual": .string(actual), "diff": .string(diff),
        ])
        #expect(same["match"] == true && same["differing"]?.intValue == 0 && same["compared"]?.intValue == 8000)
        #expect(access(actual, F_OK) != 0 && access(diff, F_OK) != 0, "nothing is written for a match")

        // The window draws its middle in another colour.
        let shell = toplevel.shell
        let buffer = try #require(shell.makeBuffer(width: 100, height: 80, argb: 0xff20_4060))
        buffer.fill(x: 40, y: 30, width: 20, height: 10, 0xffc0_4020)
        toplevel.attach(buffer)
        toplevel.commit()
        #expect(client.roundtrip())
        let changed = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
            "actual": .string(actual), "diff": .string(diff),
        ])
        #expect(changed["match"] == false && changed["differing"]?.intValue == 200)
        #expect(changed["bounds"] == .object(["x": 40, "y": 30, "width": 20, "height": 10]))
        #expect(changed["actual"]?.stringValue == actual && changed["diff"]?.stringValue == diff)
        #expect(try PNGFile.read(path: actual).at(45, 35) == 0xffc0_4020)
        #expect(try PNGFile.read(path: diff).at(45, 35) == 0xffff_0000)

        // Tolerances and masks make it pass.
        let tolerated = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden", "max_diff": 200,
        ])
        #expect(tolerated["match"] == true)
        let share = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden", "max_diff_ratio": 0.02,
        ])
        #expect(share["match"] == false, "200 of 8000 is 2.5%")
        let masked = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
            "masks": .array(["40,30,20x10"]),
        ])
        #expect(masked["match"] == true && masked["compared"]?.intValue == 7800)
        let object = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
            "masks": .array([.object(["x": 35, "y": 25, "width": 30, "height": 20])]),
        ])
        #expect(object["match"] == true)
        // The covering window's frame (60,60 100x80) is 10,10 and beyond in the window's image.
        let byWindow = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
            "mask_windows": .array(["cover"]),
        ])
        #expect(byWindow["match"] == true && byWindow["compared"]?.intValue == 8000 - 90 * 70)
        let byLevel = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "golden",
            "mask_levels": .array(["normal"]),
        ])
        #expect(byLevel["match"] == true && byLevel["compared"]?.intValue == 0)
    }

    @Test func aScreenIsComparedAsItShowsAndSizesThatDifferAreAFailureNotAnError() throws {
        let harness = try ControlHarness()
        let (client, toplevel, window) = try show(harness, "one", argb: 0xff80_8080, at: Point(x: 0, y: 0))
        defer { withExtendedLifetime((client, toplevel)) {} }
        let baseline = harness.directory + "/screen.png"
        #expect(
            try harness.request(["command": "compare-screenshot", "baseline": .string(baseline), "update": true])[
                "width"]?.intValue == 640)
        #expect(try harness.request(["command": "compare-screenshot", "baseline": .string(baseline)])["match"] == true)
        #expect(harness.windows.move(window, to: harness.windows.mainScreen!, origin: Point(x: 200, y: 200)))
        let moved = try harness.request(["command": "compare-screenshot", "baseline": .string(baseline)])
        #expect(moved["match"] == false && moved["differing"]?.intValue == 2 * 8000)
        // Against the window's picture: another size.
        let actual = harness.directory + "/actual.png"
        let sized = try harness.request([
            "command": "compare-screenshot", "baseline": .string(baseline), "window": "one", "actual": .string(actual),
        ])
        #expect(sized.isOK && sized["match"] == false)
        #expect(
            sized["reason"]?.stringValue
                == "the pictures differ in size: 640x480 and 100x80 (the baseline, then the current picture)")
        #expect(try PNGFile.read(path: actual).width == 100)
    }

    @Test func badArgumentsAreRefusedInWords() throws {
        let harness = try ControlHarness()
        let fifo = harness.directory + "/fifo.png"
        try #require(mkfifo(fifo, 0o600) == 0)
        let cases: [([String: JSONValue], String)] = [
            (["baseline": "relative.png"], "invalid_argument"),
            (["baseline": .string(fifo)], "failed"),
            (["baseline": "/tmp/x.png", "threshold": 300], "invalid_argument"),
            (["baseline": "/tmp/x.png", "max_diff_ratio": 2], "invalid_argument"),
            (["baseline": "/tmp/x.png", "masks": .array(["1,2,3"])], "invalid_argument"),
            (
                ["baseline": "/tmp/x.png", "masks": .array([.object(["x": 1, "y": 2, "width": 0, "height": 3])])],
                "invalid_argument"
            ),
            (["baseline": "/tmp/x.png", "masks": "0,0,1x1"], "invalid_argument"),
            (["baseline": "/tmp/x.png", "mask_windows": .array(["nobody"])], "unknown_window"),
            (["baseline": "/tmp/x.png", "mask_levels": .array(["sideways"])], "invalid_argument"),
            (["baseline": "/tmp/x.png", "window": "nobody"], "unknown_window"),
        ]
        for (fields, code) in cases {
            var request = fields
            request["command"] = "compare-screenshot"
            let reply = try harness.request(request)
            #expect(reply.errorCode == code, "\(fields): \(reply)")
            #expect(reply["error"]?["message"]?.stringValue?.isEmpty == false)
        }
        #expect(try harness.request(["command": "sync"]).isOK, "the server goes on")
    }
}
