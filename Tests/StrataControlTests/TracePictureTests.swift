import CStrataClientGlue
import CWaylandClient
import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import StrataTrace
import Testing

/// Pictures in traces (docs/experiments.md, "Pictures in a trace") and `wait-image`.
@Suite struct TracePictureTests {
    struct Painted {
        let client: TestClient
        let shell: TestXdgShell
        let toplevel: TestToplevel

        /// Draws the whole window in one colour and commits.
        func paint(_ argb: UInt32) {
            guard let buffer = shell.makeBuffer(width: 100, height: 100, argb: argb) else { return }
            toplevel.attach(buffer)
            toplevel.commit()
            _ = client.roundtrip()
        }
    }

    private func window(_ harness: ControlHarness, appID: String, argb: UInt32) throws -> Painted {
        let client = try TestClient(server: harness.server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(toplevel.toplevel, appID)
        xdg_toplevel_set_title(toplevel.toplevel, "Picture")
        #expect(toplevel.map(width: 100, height: 100, argb: argb))
        return Painted(client: client, shell: shell, toplevel: toplevel)
    }

    private func lines(_ path: String) throws -> [JSONValue] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONValue.parse(Data($0.utf8))
        }
    }

    /// The hash of a 100×100 picture of one colour, as the recorder and wait-image compute it.
    private func hash(ofSolid argb: UInt32) throws -> String {
        let canvas = try #require(Canvas(width: 100, height: 100))
        canvas.fill(argb: argb)
        return PictureEncoding.hex(PictureEncoding.hash(of: canvas))
    }

    @Test func aCommandCarriesWhatItsWindowShowedAndTheImageLineComesFirstOnce() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "pic.test", argb: 0xff33_6699)
        let path = harness.directory + "/pictures.trace"
        let control = try harness.connect()
        #expect(try control.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        #expect(try control.request(["command": "raise", "window": "pic.test"]).isOK)
        #expect(try control.request(["command": "make-key", "window": "pic.test"]).isOK)
        #expect(try control.request(["command": "windows"]).isOK)
        _ = painted
        #expect(try control.request(["command": "record", "action": "stop"]).isOK)
        let trace = try lines(path)
        let expected = try hash(ofSolid: 0xff33_6699)
        let commands = trace.enumerated().filter { $0.element["type"] == "command" }
        let raise = try #require(commands.first { $0.element["request"]?["command"] == "raise" })
        let shown = try #require(raise.element["shown"]?.arrayValue)
        #expect(shown.count == 1)
        #expect(shown.first?["hash"]?.stringValue == expected)
        #expect(shown.first?["window"]?.intValue == Int(harness.windows.windows[0].id.rawValue))
        #expect(
            commands.first { $0.element["request"]?["command"] == "make-key" }?.element["shown"]?.arrayValue?.first?[
                "hash"]?.stringValue == expected)
        #expect(
            commands.first { $0.element["request"]?["command"] == "windows" }?.element["shown"] == nil,
            "a read-only command has no pictures")
        let images = trace.enumerated().filter { $0.element["type"] == "image" && $0.element["kind"] == "window" }
        #expect(images.count == 1, "one image line per picture, however many steps name it")
        let image = try #require(images.first)
        #expect(image.offset < raise.offset, "the image line precedes the first line that names it")
        #expect(image.element["hash"]?.stringValue == expected)
        #expect(image.element["width"]?.intValue == 100 && image.element["height"]?.intValue == 100)
        let png = try #require(Data(base64Encoded: image.element["png"]?.stringValue ?? ""))
        let file = harness.directory + "/window.png"
        #expect(FileManager.default.createFile(atPath: file, contents: png))
        let pixels = try PNGFile.read(path: file)
        #expect(pixels.width == 100 && pixels.at(50, 50) == 0xff33_6699)
    }

    @Test func aPressFromABackendCarriesWhatItsWindowShowed() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "press.test", argb: 0xff22_4466)
        let path = harness.directory + "/press.trace"
        #expect(try harness.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        let seat = try #require(harness.server.compositor.seat)
        seat.key(30, pressed: true, time: 1)
        seat.key(30, pressed: false, time: 2)
        _ = painted.client.roundtrip()
        #expect(try harness.request(["command": "record", "action": "stop"]).isOK)
        let inputs = try lines(path).filter { $0["type"] == "input" && $0["input"] == "key" }
        #expect(inputs.count == 2)
        #expect(
            inputs.first?["shown"]?.arrayValue?.first?["hash"]?.stringValue == (try hash(ofSolid: 0xff22_4466)),
            "\(inputs)")
        #expect(inputs.last?["shown"] == nil, "a release is not a step a replay waits before")
    }

    @Test func screenPicturesGetThumbnailsBeforeTheirFrameLines() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "thumb.test", argb: 0xff00_8800)
        let path = harness.directory + "/thumbs.trace"
        #expect(try harness.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        harness.server.compositor.scene.damageAll(harness.server.compositor.scene.outputs[0])
        harness.server.repaint()
        _ = painted
        #expect(try harness.request(["command": "record", "action": "stop"]).isOK)
        let trace = try lines(path)
        let frame = try #require(trace.firstIndex { $0["type"] == "frame" && $0["hash"] != nil })
        let hash = try #require(trace[frame]["hash"]?.stringValue)
        let thumbnail = try #require(
            trace.firstIndex { $0["type"] == "image" && $0["kind"] == "thumbnail" && $0["hash"]?.stringValue == hash })
        #expect(thumbnail < frame)
        #expect((trace[thumbnail]["width"]?.intValue ?? 0) <= 320 && (trace[thumbnail]["height"]?.intValue ?? 0) <= 320)
        #expect(TraceReport.isBase64PNG(trace[thumbnail]["png"]?.stringValue ?? ""))
    }

    @Test func pastTheBudgetNoPictureIsAddedAndTheTraceSaysSo() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "budget.test", argb: 0xff99_0000)
        let path = harness.directory + "/budget.trace"
        #expect(try harness.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        let recorder = try #require(harness.control.recorder)
        recorder.imageBudget = 200
        #expect(try harness.request(["command": "raise", "window": "budget.test"]).isOK)
        painted.paint(0xff00_0099)
        #expect(try harness.request(["command": "raise", "window": "budget.test"]).isOK)
        #expect(try harness.request(["command": "record", "action": "stop"]).isOK)
        let trace = try lines(path)
        #expect(!trace.contains { $0["type"] == "image" && $0["png"] != nil })
        #expect(trace.filter { $0["type"] == "image" && $0["budget_reached"] == true }.count == 1)
        let hashes = trace.filter { $0["type"] == "command" && $0["request"]?["command"] == "raise" }.compactMap {
            $0["shown"]?.arrayValue?.first?["hash"]?.stringValue
        }
        #expect(
            hashes == [try hash(ofSolid: 0xff99_0000), try hash(ofSolid: 0xff00_0099)],
            "the hashes go on past the budget")
    }

    /// Sends `wait-image` and steps the client (and the server) until the reply comes.
    private func waitImage(
        _ harness: ControlHarness, _ client: TestClient, _ fields: [String: JSONValue],
        meanwhile: (() -> Void)? = nil
    ) throws -> JSONValue? {
        let raw = try harness.connect()
        var request = fields
        request["command"] = "wait-image"
        request["id"] = 7
        raw.send(String(decoding: JSONValue.object(request).encodedLine(), as: UTF8.self) + "\n")
        var reply: JSONValue?
        var rounds = 0
        _ = client.wait(seconds: 20) {
            rounds += 1
            if rounds == 20 { meanwhile?() }
            reply = raw.pollLine()
            return reply != nil
        }
        return reply
    }

    @Test func waitImageMatchesAtOnceOrAfterALaterCommit() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "wait.test", argb: 0xff11_2233)
        let now = try #require(
            try waitImage(
                harness, painted.client, ["window": "wait.test", "hash": .string(try hash(ofSolid: 0xff11_2233))]))
        #expect(now.isOK, "\(now)")
        #expect(now["waited_s"]?.doubleValue == 0)
        let later = try hash(ofSolid: 0xff44_5566)
        var painted2 = false
        let reply = try #require(
            try waitImage(harness, painted.client, ["window": "wait.test", "hash": .string(later), "timeout": 10]) {
                painted.paint(0xff44_5566)
                painted2 = true
            })
        #expect(painted2, "the reply waited for the commit")
        #expect(reply.isOK, "\(reply)")
        #expect(reply["hash"]?.stringValue == later)
    }

    @Test func waitImageFailsAtItsTimeoutAndWritesWhatTheWindowShowed() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "late.test", argb: 0xff77_0077)
        let output = harness.directory + "/shown.png"
        let reply = try #require(
            try waitImage(
                harness, painted.client,
                [
                    "window": "late.test", "hash": "0123456789abcdef",
                    "timeout": 0.3, "output": .string(output),
                ]))
        #expect(reply.errorCode == "failed")
        let message = reply["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("late.test") && message.contains("other pixels"), "\(message)")
        #expect(reply["path"]?.stringValue == output)
        #expect(try PNGFile.read(path: output).at(10, 10) == 0xff77_0077)
    }

    @Test func waitImageWithAToleranceComparesAgainstTheExpectedPicture() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "near.test", argb: 0xff80_8080)
        let expected = harness.directory + "/expected.png"
        try PNGFile.write(
            path: expected,
            pixels: PNGFile.Pixels(width: 100, height: 100, argb: [UInt32](repeating: 0xff82_8082, count: 10_000)))
        let far = try #require(
            try waitImage(
                harness, painted.client,
                [
                    "window": "near.test", "hash": "0123456789abcdef", "timeout": 0.2,
                    "expected": .string(expected), "threshold": 1,
                ]))
        #expect(far.errorCode == "failed")
        #expect(far["differing"]?.intValue == 10_000)
        let near = try #require(
            try waitImage(
                harness, painted.client,
                [
                    "window": "near.test", "hash": "0123456789abcdef", "timeout": 5,
                    "expected": .string(expected), "threshold": 2,
                ]))
        #expect(near.isOK, "\(near)")
        #expect(near["differing"]?.intValue == 0)
    }

    @Test func waitImageRefusesHostileArguments() throws {
        let harness = try ControlHarness()
        let painted = try window(harness, appID: "bad.test", argb: 0xff12_3456)
        let good = try hash(ofSolid: 0xff12_3456)
        #expect(
            try harness.request(["command": "wait-image", "window": "nobody", "hash": .string(good)]).errorCode
                == "unknown_window")
        #expect(try harness.request(["command": "wait-image", "window": "bad.test"]).errorCode == "missing_argument")
        for hash: JSONValue in ["xyz", "\"><script>alert(1)</script>", "0123456789ABCDEF", 12, "0123456789abcdef0"] {
            #expect(
                try harness.request(["command": "wait-image", "window": "bad.test", "hash": hash]).errorCode
                    == "invalid_argument")
        }
        for timeout: JSONValue in [-1, 0, "never"] {
            #expect(
                try harness.request([
                    "command": "wait-image", "window": "bad.test", "hash": .string(good), "timeout": timeout,
                ]).errorCode == "invalid_argument")
        }
        for (name, value): (String, JSONValue) in [
            ("expected", "relative.png"), ("expected", "/nonexistent/x.png"), ("expected", "/dev/zero"),
            ("output", "relative.png"), ("output", "/nonexistent/dir/x.png"),
            ("masks", ["1,2"]), ("masks", "0,0,1x1"), ("threshold", 300), ("max_diff", "200%"),
        ] {
            #expect(
                try harness.request(["command": "wait-image", "window": "bad.test", "hash": .string(good), name: value])
                    .errorCode == "invalid_argument",
                "\(name) \(value)")
        }
        // A huge timeout is cut to the longest one; a match still answers at once.
        let huge = try harness.request([
            "command": "wait-image", "window": "bad.test", "hash": .string(good), "timeout": 1e300,
        ])
        #expect(huge.isOK, "\(huge)")
        _ = painted
    }
}
