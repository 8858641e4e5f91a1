import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import StrataTrace
import Testing

/// `maximize`, `fullscreen`, `restore` and `resize` over the control socket, with a real
/// in-process xdg client: each is the configure a client's own request (or a taskbar's) gets,
/// and the frame follows once the client has drawn it.
@Suite struct WindowStateCommandTests {
    private static let red: UInt32 = 0xffff_0000

    /// A mapped 120×90 xdg toplevel `states.test` beside the harness.
    private static func mapped() throws -> (ControlHarness, TestToplevel, Window) {
        let harness = try ControlHarness()
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(toplevel.toplevel, "states.test")
        #expect(toplevel.map(width: 120, height: 90, argb: red))
        let window = try #require(harness.windows.windows.first { $0.appID == "states.test" })
        return (harness, toplevel, window)
    }

    @Test func maximizeConfiguresTheWorkAreaAndRestoreTheFrameBefore() throws {
        let (harness, toplevel, window) = try Self.mapped()
        let before = window.frame
        let screen = try #require(window.screen)
        let workArea = harness.windows.placement.workArea(of: screen)
        let reply = try harness.request(["command": "maximize", "window": "STATES.TEST"])
        #expect(reply.isOK, "\(reply)")
        #expect(try reply["target"]?.decode(Rect.self) == workArea)
        #expect(reply["window"]?["maximized"] == true)
        #expect(toplevel.client.roundtrip())
        let configure = try #require(toplevel.lastConfigure)
        #expect(configure.has(XDG_TOPLEVEL_STATE_MAXIMIZED))
        #expect(Int(configure.width) == workArea.width && Int(configure.height) == workArea.height)
        #expect(toplevel.ackAndRedraw(argb: Self.red))
        #expect(window.frame == workArea)
        let listed = try harness.request(["command": "windows"])["windows"]?.decode([WindowInfo].self).first
        #expect(listed?.maximized == true && listed?.fullscreen == false && listed?.frame == workArea)

        let restored = try harness.request(["command": "restore", "window": "title:*"])
        #expect(restored["changed"] == true)
        #expect(toplevel.client.roundtrip())
        let back = try #require(toplevel.lastConfigure)
        #expect(!back.has(XDG_TOPLEVEL_STATE_MAXIMIZED) && back.width == 120 && back.height == 90)
        #expect(toplevel.ackAndRedraw(argb: Self.red))
        #expect(window.frame == before)
        #expect(try harness.request(["command": "restore", "window": "states.test"])["changed"] == false)
    }

    @Test func fullscreenConfiguresTheWholeScreenAndRestoreLeavesIt() throws {
        let (harness, toplevel, window) = try Self.mapped()
        let screen = try #require(window.screen)
        let reply = try harness.request(["command": "fullscreen", "window": "states.test"])
        #expect(reply["window"]?["fullscreen"] == true)
        #expect(toplevel.client.roundtrip())
        let configure = try #require(toplevel.lastConfigure)
        #expect(configure.has(XDG_TOPLEVEL_STATE_FULLSCREEN))
        #expect(Int(configure.width) == screen.bounds.width && Int(configure.height) == screen.bounds.height)
        #expect(toplevel.ackAndRedraw(argb: Self.red))
        #expect(window.frame == Rect(origin: .zero, size: screen.bounds.size))
        #expect(try harness.request(["command": "restore", "window": "states.test"])["changed"] == true)
        #expect(toplevel.client.roundtrip())
        #expect(toplevel.lastConfigure?.has(XDG_TOPLEVEL_STATE_FULLSCREEN) == false)
    }

    @Test func resizeAsksForTheSizeWithinTheClientsLimitsAndLeavesMaximized() throws {
        let (harness, toplevel, window) = try Self.mapped()
        let origin = (window.frame.x, window.frame.y)
        let reply = try harness.request(["command": "resize", "window": "states.test", "width": 300, "height": 200])
        #expect(reply["requested"]?["width"]?.intValue == 300 && reply["requested"]?["height"]?.intValue == 200)
        #expect(toplevel.client.roundtrip())
        #expect(toplevel.lastConfigure?.width == 300 && toplevel.lastConfigure?.height == 200)
        #expect(toplevel.ackAndRedraw(argb: Self.red))
        #expect(window.frame == Rect(x: origin.0, y: origin.1, width: 300, height: 200))
        // Committed: a later configure (deactivation) leaves the size to the client again.
        harness.window("other")
        #expect(toplevel.client.roundtrip())
        #expect(toplevel.lastConfigure?.width == 0 && toplevel.lastConfigure?.height == 0 && !toplevel.isActivated)

        // The client's maximum size bounds the request; the reply says what was asked.
        xdg_toplevel_set_max_size(toplevel.toplevel, 250, 150)
        #expect(toplevel.ackAndRedraw(argb: Self.red))
        let clamped = try harness.request([
            "command": "resize", "window": "states.test", "width": 999999, "height": 100,
        ])
        #expect(clamped["requested"]?["width"]?.intValue == 250 && clamped["requested"]?["height"]?.intValue == 100)
        #expect(toplevel.client.roundtrip())
        #expect(toplevel.lastConfigure?.width == 250 && toplevel.lastConfigure?.height == 100)
        #expect(toplevel.ackAndRedraw(argb: Self.red))

        // From maximized: out of it, at the size asked.
        _ = try harness.request(["command": "maximize", "window": "states.test"])
        #expect(toplevel.client.roundtrip())
        #expect(toplevel.ackAndRedraw(argb: Self.red))
        let unmax = try harness.request(["command": "resize", "window": "states.test", "width": 200, "height": 120])
        #expect(unmax["window"]?["maximized"] == false)
        #expect(toplevel.client.roundtrip())
        let configure = try #require(toplevel.lastConfigure)
        #expect(!configure.has(XDG_TOPLEVEL_STATE_MAXIMIZED) && configure.width == 200 && configure.height == 120)
    }

    @Test func badSizesAndWindowsWithoutAClientAreRefusedInWords() throws {
        let (harness, toplevel, _) = try Self.mapped()
        defer { withExtendedLifetime(toplevel) {} }
        #expect(
            try harness.request(["command": "resize", "window": "states.test", "width": 0, "height": 10]).errorCode
                == "invalid_argument")
        #expect(
            try harness.request(["command": "resize", "window": "states.test", "width": 10]).errorCode
                == "missing_argument")
        harness.window("bare")
        for command: JSONValue in ["maximize", "fullscreen", "restore"] {
            let reply = try harness.request(["command": command, "window": "bare"])
            #expect(reply.errorCode == "unsupported", "\(command): \(reply)")
            #expect(reply["error"]?["message"]?.stringValue?.contains("cannot be") == true)
        }
        #expect(
            try harness.request(["command": "resize", "window": "bare", "width": 10, "height": 10]).errorCode
                == "unsupported")
    }

    @Test func theStateCommandsAreRecordedInATrace() throws {
        let (harness, toplevel, _) = try Self.mapped()
        defer { withExtendedLifetime(toplevel) {} }
        let path = harness.directory + "/states.trace"
        let client = try harness.connect()
        #expect(try client.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        for (command, extra) in [
            ("maximize", [:]), ("fullscreen", [:]), ("restore", [:]),
            ("resize", ["width": JSONValue(200), "height": JSONValue(100)]),
        ] as [(String, [String: JSONValue])] {
            #expect(
                try client.request(extra.merging(["command": .string(command), "window": "states.test"]) { $1 }).isOK,
                "\(command)")
        }
        #expect(try client.request(["command": "record", "action": "stop"]).isOK)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let commands = try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
            .filter { $0["type"] == "command" }
        #expect(
            commands.compactMap { $0["request"]?["command"]?.stringValue } == [
                "maximize", "fullscreen", "restore", "resize",
            ])
        #expect(commands.allSatisfy { $0["reply"]?["ok"] == true })
    }

    @Test func theStateCommandsAreListedAndReplayed() {
        for command in ["maximize", "fullscreen", "restore", "resize"] {
            #expect(ControlProtocol.commands.contains(command))
            #expect(TraceFormat.replayedCommands.contains(command))
        }
    }
}
