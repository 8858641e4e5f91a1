import Foundation
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import Testing

/// Each command's effect on the model (and the seat), through the socket.
@Suite struct CommandTests {
    @Test func windowsListsEveryWindowFrontToBack() throws {
        let harness = try ControlHarness()
        let a = harness.window("a")
        let alert = harness.window("alert", level: .alert, key: false)
        harness.windows.hide(harness.window("c", key: false))
        let reply = try harness.request(["command": "windows"])
        let list = try #require(try reply["windows"]?.decode([WindowInfo].self))
        #expect(list.map(\.appID) == ["alert", "c", "a"])
        #expect(list.map(\.order) == [0, 1, 2])
        #expect(list[0].level == "alert" && list[0].id == alert.id.rawValue && !list[0].key)
        #expect(list[1].hidden)
        #expect(list[2].key && list[2].id == a.id.rawValue && list[2].title == "A" && list[2].screen == 1)
        #expect(list[2].frame == Rect(x: 10, y: 10, width: 100, height: 100))
    }

    @Test func makeKeyRaiseLowerSetLevelHideShow() throws {
        let harness = try ControlHarness()
        let a = harness.window("a"), b = harness.window("b")
        let client = try harness.connect()
        #expect(try client.request(["command": "make-key", "window": "a"]).isOK)
        #expect(a.isKeyWindow)
        #expect(try client.request(["command": "raise", "window": JSONValue(a.id.rawValue)]).isOK)
        #expect(harness.windows.windows.last === a)
        #expect(try client.request(["command": "lower", "window": "a"]).isOK)
        #expect(harness.windows.windows.first === a)
        let leveled = try client.request(["command": "set-level", "window": "a", "level": "alert"])
        #expect(leveled["window"]?["level"] == "alert")
        #expect(a.level == .alert)
        #expect(try client.request(["command": "set-level", "window": "b", "level": 1500]).isOK)
        #expect(b.level == WindowLevel(rawValue: 1500))
        #expect(try client.request(["command": "hide", "window": "a"]).isOK)
        #expect(a.isHidden && b.isKeyWindow)
        #expect(try client.request(["command": "make-key", "window": "a"]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "show", "window": "a"]).isOK)
        #expect(!a.isHidden && b.isKeyWindow)
        #expect(try client.request(["command": "show", "window": "a", "key": true]).isOK)
        #expect(a.isKeyWindow)
    }

    @Test func moveTakesAWindowToAnotherScreenAndPlace() throws {
        let harness = try ControlHarness(screens: 2)
        let a = harness.window("a")
        let reply = try harness.request(["command": "move", "window": "a", "screen": "HEADLESS-2", "x": 40, "y": 50])
        #expect(reply["window"]?["screen"]?.intValue == 2)
        #expect(a.screen?.name == "HEADLESS-2")
        #expect(a.frame == Rect(x: 40, y: 50, width: 100, height: 100))
    }

    @Test func moveRepaintsTheOldAndTheNewPlaceWithoutTheCommandDamagingAnything() throws {
        let harness = try ControlHarness()
        let client = try TestClient(server: harness.server)
        let surface = try client.makeSurface(width: 50, height: 50, argb: 0xffff_0000)
        let window = try #require(client.showPlainSurface(surface, x: 0, y: 0))
        let output = try #require(harness.server.compositor.scene.outputs.first)
        #expect(harness.server.pixel(x: 10, y: 10) == 0xffff_0000)
        let reply = try harness.request([
            "command": "move", "window": JSONValue(window.id.rawValue), "screen": 1, "x": 100, "y": 0,
        ])
        #expect(reply.isOK, "\(reply)")
        // The scene saw the model's frame change: both places are damaged, a frame is coming.
        #expect(output.isFrameScheduled)
        harness.server.repaint()
        #expect(output.lastPaintedArea == 2 * 50 * 50)
        #expect(harness.server.pixel(x: 10, y: 10) == TestServer.background)
        #expect(harness.server.pixel(x: 110, y: 10) == 0xffff_0000)
        #expect(client.roundtrip())
    }

    @Test func moveWithoutAScreenKeepsTheWindowOnItsOwnScreen() throws {
        let harness = try ControlHarness(screens: 2)
        let a = harness.window("a")
        _ = try harness.request(["command": "move", "window": "a", "screen": "HEADLESS-2"])
        let reply = try harness.request(["command": "move", "window": "a", "x": 30, "y": 20])
        #expect(reply["window"]?["screen"]?.intValue == 2)
        #expect(a.screen?.name == "HEADLESS-2")
        #expect(a.frame == Rect(x: 30, y: 20, width: 100, height: 100))
    }

    @Test func moveWithNeitherAScreenNorAPlaceIsAMissingArgument() throws {
        let harness = try ControlHarness()
        let a = harness.window("a")
        let before = a.frame
        #expect(try harness.request(["command": "move", "window": "a"]).errorCode == "missing_argument")
        #expect(try harness.request(["command": "move", "window": "a", "y": 4]).errorCode == "missing_argument")
        #expect(a.frame == before)
    }

    @Test func closeOfAWindowWithoutAClientClosesItAndKeyPassesOn() throws {
        let harness = try ControlHarness()
        let a = harness.window("a"), b = harness.window("b")
        let reply = try harness.request(["command": "close", "window": "b"])
        #expect(reply["closed"] == true)
        #expect(b.isClosed && a.isKeyWindow)
    }

    @Test func policyReadsAndSwitchesTheKeyWindowPolicy() throws {
        let harness = try ControlHarness()
        #expect(try harness.request(["command": "policy"])["policy"] == "uikit")
        #expect(try harness.request(["command": "policy", "name": "click-to-focus"])["policy"] == "click-to-focus")
        #expect(harness.windows.policy.name == "click-to-focus")
    }

    @Test func placementReadsAndSwitchesTheWindowPlacementPolicy() throws {
        let harness = try ControlHarness()
        let reply = try harness.request(["command": "placement"])
        #expect(reply["placement"] == "cascade")
        #expect(reply["available"] == .array(["cascade", "top-left", "center"]))
        #expect(try harness.request(["command": "placement", "name": "center"])["placement"] == "center")
        #expect(harness.windows.placement.name == "center")
        #expect(try harness.request(["command": "placement"])["placement"] == "center")
        #expect(try harness.request(["command": "hello"])["placement"] == "center")
        #expect(try harness.request(["command": "hello"])["commands"]?.arrayValue?.contains("placement") == true)
    }

    @Test func placementRefusesANameItDoesNotKnowAndKeepsThePolicy() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        for bad: JSONValue in ["random", "", "Center", "top_left", 3, true, .array(["center"])] {
            let reply = try client.request(["command": "placement", "name": bad])
            #expect(reply.errorCode == "invalid_argument", "\(bad)")
        }
        #expect(harness.windows.placement.name == "cascade")
        #expect(try client.request(["command": "placement"])["placement"] == "cascade")
    }

    @Test func screenCommandsChangeTheModel() throws {
        let harness = try ControlHarness()
        let client = try harness.connect()
        let added = try client.request([
            "command": "screen-add", "size": "800x600", "modes": ["1024x768@30"], "name": "EXT",
        ])
        let info = try #require(try added["screen"]?.decode(ScreenInfo.self))
        #expect(info.name == "EXT" && info.modes == ["800x600@60", "1024x768@30"] && info.current == "800x600@60")
        #expect(harness.server.compositor.scene.outputs.count == 2)
        #expect(try client.request(["command": "screen-add", "name": "EXT"]).errorCode == "invalid_argument")
        let screen = try #require(harness.windows.screens.last)
        #expect(try client.request(["command": "screen-mode", "screen": "EXT", "mode": "1024x768"]).isOK)
        #expect(screen.currentMode == ScreenMode(width: 1024, height: 768, refreshMilliHz: 30000))
        #expect(try client.request(["command": "screen-mode", "screen": "EXT", "mode": "800x600@60"]).isOK)
        #expect(screen.currentMode?.size == Size(width: 800, height: 600))
        #expect(try client.request(["command": "screen-brightness", "screen": 2, "value": 0.25]).isOK)
        #expect(screen.brightness == 0.25)
        #expect(try client.request(["command": "screen-transform", "screen": "EXT", "transform": "90"]).isOK)
        #expect(screen.transform == .rotated90)
        #expect(try client.request(["command": "screen-transform", "screen": "EXT", "transform": 180]).isOK)
        #expect(screen.transform == .rotated180)
        #expect(screen.isMirroring)
        #expect(
            try client.request(["command": "screen-mirror", "screen": "EXT", "enabled": false])["screen"]?["mirroring"]
                == false)
        #expect(!screen.mirrorsWhenEmpty)
        #expect(try client.request(["command": "screen-remove", "screen": "EXT"])["removed"]?.intValue == 2)
        #expect(!screen.isConnected && harness.server.compositor.scene.outputs.count == 1)
        let screens = try #require(try client.request(["command": "screens"])["screens"]?.decode([ScreenInfo].self))
        #expect(screens.map(\.name) == ["HEADLESS-1"] && screens[0].main)
    }

    @Test func removingAScreenBringsItsWindowsBackToTheMainScreen() throws {
        let harness = try ControlHarness(screens: 2)
        let a = harness.window("a")
        harness.windows.move(a, to: harness.windows.screens[1])
        #expect(try harness.request(["command": "screen-remove", "screen": 2]).isOK)
        #expect(a.screen === harness.windows.mainScreen && a.isKeyWindow)
    }

    @Test func screenshotWritesTheScreenAsPNG() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/shot.png"
        let reply = try harness.request(["command": "screenshot", "path": .string(path)])
        #expect(reply["width"]?.intValue == 640)
        let pixels = try PNGFile.read(path: path)
        #expect(pixels.width == 640 && pixels.height == 480)
        #expect(pixels.at(5, 5) == TestServer.background)
    }

    /// A FIFO would block the loop until someone read it: refused at once, and the next request
    /// is answered.
    @Test func screenshotIntoAFifoIsRefusedAndTheServerGoesOn() throws {
        let harness = try ControlHarness()
        let fifo = harness.directory + "/shot.png"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reply = try harness.request(["command": "screenshot", "path": .string(fifo)])
        #expect(reply.errorCode == "failed")
        #expect(
            reply["error"]?["message"]?.stringValue
                == "cannot write the screenshot to \(fifo): \(fifo) is a FIFO, not a regular file")
        #expect(try harness.request(["command": "sync"]).isOK)
        let path = harness.directory + "/after.png"
        #expect(try harness.request(["command": "screenshot", "path": .string(path)])["width"]?.intValue == 640)
    }

    @Test func execHandsArgvAndDirectoryToTheSpawner() throws {
        let harness = try ControlHarness()
        #expect(try harness.request(["command": "exec", "argv": ["true"]]).errorCode == "unsupported")
        var seen: ([String], String?)?
        harness.control.spawn = { argv, directory in
            seen = (argv, directory)
            return 4242
        }
        let reply = try harness.request(["command": "exec", "argv": ["client", "--flag"], "cwd": "/tmp"])
        #expect(reply["pid"]?.intValue == 4242)
        #expect(seen?.0 == ["client", "--flag"] && seen?.1 == "/tmp")
        harness.control.spawn = { _, _ in throw ControlClientError("no such program") }
        #expect(try harness.request(["command": "exec", "argv": ["nope"]]).errorCode == "failed")
    }

    @Test func syncAnswersInOrderAfterEarlierRequests() throws {
        let harness = try ControlHarness()
        harness.window("a")
        let client = try harness.connect()
        client.send("{\"id\": 1, \"command\": \"hide\", \"window\": \"a\"}\n{\"id\": 2, \"command\": \"sync\"}\n")
        let replies = client.lines(2)
        #expect(replies.map { $0["id"]?.intValue } == [1, 2])
        #expect(replies[1]["sequence"]?.intValue.map(UInt64.init) == harness.windows.notifications.lastSequence)
    }

    // MARK: Input

    @Test func pointerClickThroughTheSocketMakesTheWindowUnderItKey() throws {
        let harness = try ControlHarness()
        let wayland = try TestClient(server: harness.server)
        let seat = try TestSeat(client: wayland)
        seat.getPointer()
        seat.getKeyboard()
        wayland.roundtrip()
        let s1 = try wayland.makeSurface(width: 50, height: 50)
        let s2 = try wayland.makeSurface(width: 50, height: 50)
        let w1 = try #require(wayland.showPlainSurface(s1, x: 0, y: 0))
        let w2 = try #require(wayland.showPlainSurface(s2, x: 100, y: 0))
        #expect(w2.isKeyWindow)
        let moved = try harness.request(["command": "pointer-move", "x": 10, "y": 10])
        #expect(moved["window"]?.intValue.map(UInt64.init) == w1.id.rawValue)
        #expect(try harness.request(["command": "pointer-click"]).isOK)
        #expect(w1.isKeyWindow)
        #expect(try harness.request(["command": "pointer-button", "button": "right", "state": "down"]).isOK)
        #expect(try harness.request(["command": "pointer-button", "button": "right", "state": "up"]).isOK)
        wayland.roundtrip()
        let buttons = seat.takeEvents().compactMap { event -> UInt32? in
            if case .pointerButton(let button, true) = event { return button }
            return nil
        }
        #expect(buttons == [0x110, 0x111])
    }

    @Test func keysAndTextReachTheKeyWindowWithShiftWhereNeeded() throws {
        let harness = try ControlHarness()
        let wayland = try TestClient(server: harness.server)
        let seat = try TestSeat(client: wayland)
        seat.getKeyboard()
        wayland.roundtrip()
        let surface = try wayland.makeSurface(width: 50, height: 50)
        wayland.showPlainSurface(surface, x: 0, y: 0)
        _ = seat.takeEvents()
        let a = try harness.request(["command": "key", "key": "a"])
        #expect(a["keycode"]?.intValue == 30 && a["shift"] == false)
        #expect(try harness.request(["command": "key", "key": "Return"])["keycode"]?.intValue == 28)
        #expect(try harness.request(["command": "key", "key": 30, "state": "down"]).isOK)
        #expect(try harness.request(["command": "key", "key": 30, "state": "up"]).isOK)
        let typed = try harness.request(["command": "type", "text": "Hi!"])
        #expect(typed["typed"]?.intValue == 3)
        wayland.roundtrip()
        let keys = seat.takeEvents().compactMap { event -> String? in
            if case .key(let key, let pressed) = event { return "\(key)\(pressed ? "+" : "-")" }
            return nil
        }
        // a, Return, KEY_A down/up, then Shift+h, i, Shift+1.
        #expect(
            keys == [
                "30+", "30-", "28+", "28-", "30+", "30-",
                "42+", "35+", "35-", "42-", "23+", "23-", "42+", "2+", "2-", "42-",
            ])
    }

    @Test func touchGoesDownMovesAndUpOnTheWindowUnderIt() throws {
        let harness = try ControlHarness()
        let wayland = try TestClient(server: harness.server)
        let seat = try TestSeat(client: wayland)
        seat.getTouch()
        wayland.roundtrip()
        let surface = try wayland.makeSurface(width: 50, height: 50)
        wayland.showPlainSurface(surface, x: 0, y: 0)
        #expect(try harness.request(["command": "touch", "phase": "down", "touch_id": 3, "x": 5, "y": 6]).isOK)
        #expect(try harness.request(["command": "touch", "phase": "move", "touch_id": 3, "x": 7, "y": 8]).isOK)
        #expect(try harness.request(["command": "touch", "phase": "up", "touch_id": 3]).isOK)
        wayland.roundtrip()
        let events = seat.takeEvents().filter { $0 != .touchFrame }
        #expect(
            events == [
                .touchDown(surface: surface.id, id: 3, x: 5, y: 6), .touchMotion(id: 3, x: 7, y: 8), .touchUp(id: 3),
            ])
    }
}
