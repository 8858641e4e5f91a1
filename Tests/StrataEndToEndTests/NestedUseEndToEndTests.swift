import Foundation
import Glibc
import Testing

/// Using Strata by hand (docs/nested.md): real clients that ask for more than the screen open
/// inside the work area (docs/window-model.md, "Placement"), and Super + drag moves a window,
/// Super + right drag resizes it, the press never reaching the client (docs/seat.md, "Pointer
/// bindings"); `--no-pointer-bindings` gives the press to the client.
@Suite(.serialized) struct NestedUseEndToEndTests {
    typealias Session = ControlTests.Session

    /// A window's frame as `strata-ctl windows --json` gives it.
    struct Frame: Equatable, CustomStringConvertible {
        var x, y, width, height: Int
        var description: String { "\(x),\(y) \(width)x\(height)" }
        func isInside(width screenWidth: Int, height screenHeight: Int) -> Bool {
            x >= 0 && y >= 0 && x + width <= screenWidth && y + height <= screenHeight
        }
    }

    /// The frame of the shown window whose app id is `appID` (and title `title`, when given).
    static func frame(_ session: Session, appID: String, title: String? = nil) async throws -> Frame? {
        guard
            let window = try await session.windows().first(where: {
                $0["app_id"] as? String == appID && $0["hidden"] as? Bool == false
                    && (title == nil || $0["title"] as? String == title)
            }), let frame = window["frame"] as? [String: Any],
            let x = frame["x"] as? Int, let y = frame["y"] as? Int,
            let width = frame["width"] as? Int, let height = frame["height"] as? Int
        else { return nil }
        return Frame(x: x, y: y, width: width, height: height)
    }

    /// Polls the frame of `appID` until `condition` holds (60 s at most); the last frame seen.
    static func waitForFrame(
        _ session: Session, appID: String, title: String? = nil,
        until condition: (Frame) -> Bool
    ) async throws -> Frame? {
        var last: Frame?
        for _ in 0..<1200 {
            last = try await frame(session, appID: appID, title: title)
            if let last, condition(last) { return last }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return last
    }

    // MARK: Windows larger than the screen

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func footAskedFor1600x1000OpensInsideA640x480Screen() async throws {
        let session = try await Session.start(["--backend", "headless", "--size", "640x480"])
        try await session.ctl("exec", "--", "foot", "--window-size-pixels=1600x1000", "sh", "-c", "sleep 600")
        let frame = try await Self.waitForFrame(session, appID: "foot") { $0.isInside(width: 640, height: 480) }
        #expect(frame?.isInside(width: 640, height: 480) == true, "foot's frame: \(String(describing: frame))")
        #expect(frame?.x == 0 && frame?.y == 0)
        #expect(await session.stop().status == 0)
    }

    @Test(
        .enabled(if: StrataRun.isInstalled("gtk3-demo"), "gtk3-demo is not installed (apt-get install gtk-3-examples)"))
    func gtk3DemoLargerThanTheScreenOpensInsideIt() async throws {
        // The demo's main window is 800×647 with a minimum of 417×130: it takes the bounded size.
        let session = try await Session.start(["--backend", "headless", "--size", "640x480"])
        try await session.ctl("exec", "--", "gtk3-demo")
        let frame = try await Self.waitForFrame(session, appID: "gtk3-demo") { $0.isInside(width: 640, height: 480) }
        #expect(frame?.isInside(width: 640, height: 480) == true, "gtk3-demo's frame: \(String(describing: frame))")
        #expect(await session.stop().status == 0)
    }

    @Test(
        .enabled(if: StrataRun.isInstalled("gtk3-demo"), "gtk3-demo is not installed (apt-get install gtk-3-examples)"))
    func aWindowWhoseMinimumIsTallerThanTheScreenKeepsItsTopLeftInside() async throws {
        // Button Boxes: 702×746, its minimum too, on a 720-high screen.
        let session = try await Session.start(["--backend", "headless", "--size", "1280x720", "--placement", "center"])
        try await session.ctl("exec", "--", "gtk3-demo", "--run=button_box")
        let frame = try await Self.waitForFrame(session, appID: "gtk3-demo", title: "Button Boxes") { $0.height > 0 }
        let shown = try #require(frame, "no Button Boxes window")
        #expect(shown.y == 0, "the title bar is on the screen: \(shown)")
        #expect(shown.x >= 0 && shown.x + shown.width <= 1280, "\(shown)")
        #expect(await session.stop().status == 0)
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("xterm") && StrataRun.isInstalled("Xwayland"),
            "xterm or Xwayland is not installed"))
    func anXtermLargerThanTheScreenOpensInsideIt() async throws {
        let session = try await Session.start(["--backend", "headless", "--size", "640x480"])
        try await session.ctl("exec", "--", "xterm", "-geometry", "200x80")
        // The model's size follows what Xwayland draws, once it drew the configured size.
        let frame = try await Self.waitForFrame(session, appID: "XTerm") { $0.isInside(width: 640, height: 480) }
        #expect(frame == Frame(x: 0, y: 0, width: 640, height: 480), "xterm's frame: \(String(describing: frame))")
        #expect(await session.stop().status == 0)
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("xterm") && StrataRun.isInstalled("Xwayland"),
            "xterm or Xwayland is not installed"))
    func anXtermAskingForAPlaceOffTheScreenOpensOnIt() async throws {
        let session = try await Session.start(["--backend", "headless", "--size", "640x480"])
        try await session.ctl("exec", "--", "xterm", "-T", "far", "-geometry", "20x5+2000+1000")
        let frame = try await Self.waitForFrame(session, appID: "XTerm", title: "far") { $0.width > 0 }
        let shown = try #require(frame, "no xterm window")
        #expect(shown.isInside(width: 640, height: 480), "xterm's frame: \(shown)")
        #expect(shown.x + shown.width == 640 && shown.y + shown.height == 480, "at the far corner: \(shown)")
        #expect(await session.stop().status == 0)
    }

    // MARK: Pointer bindings

    /// Super held through `strata-ctl input key Super_L down`, then `button down`, a move and
    /// `button up` from (fromX, fromY) to (toX, toY); `button` is left or right.
    static func superDrag(
        _ session: Session, button: String = "left", from: (Int, Int), to: (Int, Int),
        modifier: String = "Super_L"
    ) async throws {
        try await session.ctl("input", "pointer", "move", String(from.0), String(from.1))
        try await session.ctl("input", "key", modifier, "down")
        try await session.ctl("input", "pointer", "button", button, "down")
        try await session.ctl("input", "pointer", "move", String(to.0), String(to.1))
        try await session.ctl("input", "pointer", "button", button, "up")
        try await session.ctl("input", "key", modifier, "up")
    }

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func superDragMovesFootAndSuperRightDragResizesIt() async throws {
        let session = try await Session.start(["--backend", "headless", "--size", "1280x720"])
        try await session.ctl("exec", "--", "foot", "--window-size-pixels=400x300", "sh", "-c", "sleep 600")
        let start = try #require(
            try await Self.waitForFrame(session, appID: "foot") { $0.width == 400 }, "no foot window")
        try await Self.superDrag(session, from: (start.x + 200, start.y + 150), to: (start.x + 300, start.y + 200))
        let moved = try await Self.waitForFrame(session, appID: "foot") { $0.x == start.x + 100 }
        #expect(
            moved == Frame(x: start.x + 100, y: start.y + 50, width: 400, height: 300), "\(String(describing: moved))")
        // From near the bottom-right corner: the window grows by the drag, its origin stays.
        try await Self.superDrag(
            session, button: "right", from: (start.x + 100 + 390, start.y + 50 + 290),
            to: (start.x + 100 + 490, start.y + 50 + 350))
        let resized = try await Self.waitForFrame(session, appID: "foot") { $0.width > 400 }
        #expect(resized?.x == start.x + 100 && resized?.y == start.y + 50, "\(String(describing: resized))")
        #expect((resized?.width ?? 0) > 450 && (resized?.height ?? 0) > 320, "\(String(describing: resized))")
        #expect(await session.stop().status == 0)
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("xterm") && StrataRun.isInstalled("Xwayland"),
            "xterm or Xwayland is not installed"))
    func superDragMovesAnXterm() async throws {
        let session = try await Session.start(["--backend", "headless", "--size", "1280x720"])
        try await session.ctl("exec", "--", "xterm", "-geometry", "40x10")
        let start = try #require(
            try await Self.waitForFrame(session, appID: "XTerm") { $0.width > 0 }, "no xterm window")
        try await Self.superDrag(session, from: (start.x + 20, start.y + 20), to: (start.x + 220, start.y + 120))
        let moved = try await Self.waitForFrame(session, appID: "XTerm") { $0.x == start.x + 200 }
        #expect(
            moved == Frame(x: start.x + 200, y: start.y + 100, width: start.width, height: start.height),
            "\(String(describing: moved))")
        #expect(await session.stop().status == 0)
    }

    /// weston-eventdemo logs every button it gets: the binding's press is not among them, a
    /// plain click after it is (the barrier); under `--no-pointer-bindings` the press is.
    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-eventdemo") && StrataRun.isInstalled("stdbuf"),
            "weston-eventdemo is not installed (apt-get install weston)"),
        arguments: [false, true])
    func theBindingsPressNeverReachesTheClientUnlessBindingsAreOff(off: Bool) async throws {
        let session = try await Session.start(
            ["--backend", "headless", "--size", "1280x720"] + (off ? ["--no-pointer-bindings"] : []))
        let log = session.run.root + "/eventdemo.log"
        try await session.ctl("exec", "--", "sh", "-c", "exec stdbuf -oL weston-eventdemo --log-button > '\(log)' 2>&1")
        let appID = "org.freedesktop.weston.eventdemo"
        let start = try #require(
            try await Self.waitForFrame(session, appID: appID) { $0.width > 0 }, "no eventdemo window")
        let read = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let presses = {
            read().components(separatedBy: "\n").filter { $0.contains("button: 272, state: pressed") }.count
        }
        try await Self.superDrag(session, from: (start.x + 100, start.y + 100), to: (start.x + 150, start.y + 130))
        // The barrier: a plain click, which eventdemo logs.
        try await session.ctl(
            "input", "pointer", "move", String(start.x + (off ? 110 : 160)), String(start.y + (off ? 110 : 140)))
        try await session.ctl("input", "pointer", "button", "left", "down")
        try await session.ctl("input", "pointer", "button", "left", "up")
        var seen = 0
        for _ in 0..<1200 {
            seen = presses()
            if read().components(separatedBy: "\n").filter({ $0.contains("button: 272, state: released") }).count
                == (off ? 2 : 1)
            {
                break
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        seen = presses()
        let frame = try await Self.frame(session, appID: appID)
        if off {
            #expect(seen == 2, "eventdemo's log: \(read())")
            #expect(frame == start, "nothing moved")
        } else {
            #expect(seen == 1, "eventdemo's log: \(read())")
            #expect(frame == Frame(x: start.x + 50, y: start.y + 30, width: start.width, height: start.height))
        }
        #expect(await session.stop().status == 0)
    }
}
