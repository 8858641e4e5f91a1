import Foundation
import Glibc
import Testing

/// strata-ctl's locators on a scaled screen (2 and 1.5) and on a second screen: the element's
/// rectangle lies in its window's frame on the window's screen, the scene has that window under
/// the rectangle's centre, and a pointer click there lands (the application's reaction).
@Suite(.serialized) struct ScaledLocatorEndToEndTests {
    typealias Session = ControlTests.Session

    /// Where the window is put: at an odd place on a screen of scale 2 or 1.5 (fractional pixels
    /// at 1.5), or on the second of two screens, that one at scale 1.5 and the first at 1.
    enum Setting: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case scale2, scale1point5, secondScreen
        var testDescription: String { rawValue }

        /// The window's screen 1024×768 logical pixels.
        var arguments: [String] {
            switch self {
            case .scale2: ["--size", "2048x1536", "--scale", "2"]
            case .scale1point5: ["--size", "1536x1152", "--scale", "1.5"]
            case .secondScreen: ["--screens", "2", "--size", "1536x1152"]
            }
        }
        var screen: Int { self == .secondScreen ? 2 : 1 }
    }

    /// A Strata for the setting, its client `command` started, its window (of app id `appID`)
    /// moved to 37,23 on the setting's screen.
    static func start(_ setting: Setting, _ command: [String], window appID: String) async throws -> Session {
        let session = try await Session.start(["--accessibility"] + setting.arguments)
        if setting == .secondScreen { try await session.ctl("screen", "scale", "2", "1.5") }
        try await session.ctl(["exec", "--"] + command)
        let window = try await session.waitForWindow(appID)
        try await session.ctl("move", String(window), "--screen", String(setting.screen), "--to", "37,23")
        return session
    }

    /// One element as `find --json` places it.
    struct Placed {
        var x, y, width, height: Double
        var screen, window: Int
        var center: (x: Double, y: Double) { (x + width / 2, y + height / 2) }
        var text: String { "\(x),\(y),\(width)x\(height) on screen \(screen) in window \(window)" }
    }

    /// The one element `locator` finds (waiting up to 60 s for it on screen), placed.
    static func place(_ session: Session, _ locator: [String]) async throws -> Placed {
        let output = try await session.ctl(["find", "--json", "--wait", "60"] + locator).stdout
        let reply = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let elements = reply?["elements"] as? [[String: Any]] ?? []
        let element = try #require(elements.count == 1 ? elements.first : nil, "not one element: \(output)")
        let rect = try #require(element["rect"] as? [String: Any], "not on screen: \(output)")
        func number(_ key: String) throws -> Double { try #require((rect[key] as? NSNumber)?.doubleValue) }
        return Placed(
            x: try number("x"), y: try number("y"), width: try number("width"), height: try number("height"),
            screen: try #require(element["screen"] as? Int), window: try #require(element["window"] as? Int))
    }

    /// Expects the element `locator` finds on screen `screen`, inside its window's frame, with its
    /// window under its centre in the scene (the pointer moved there says which window it is
    /// over); its place.
    static func expectInItsWindow(
        _ session: Session, _ locator: [String], screen: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Placed {
        let placed = try await place(session, locator)
        let window = try #require(try await session.windows().first { $0["id"] as? Int == placed.window })
        let frame = try #require(window["frame"] as? [String: Int])
        let (fx, fy) = (Double(frame["x"] ?? 0), Double(frame["y"] ?? 0))
        let (fw, fh) = (Double(frame["width"] ?? 0), Double(frame["height"] ?? 0))
        #expect(
            window["screen"] as? Int == screen && placed.screen == screen, "\(placed.text)",
            sourceLocation: sourceLocation)
        #expect(
            placed.x >= fx && placed.y >= fy && placed.x + placed.width <= fx + fw
                && placed.y + placed.height <= fy + fh,
            "\(placed.text) is not inside its window's frame \(frame)", sourceLocation: sourceLocation)
        let center = placed.center
        let moved = try await session.ctl(
            "input", "pointer", "move", "--json", "--screen", String(screen), String(center.x), String(center.y)
        ).stdout
        let reply = try JSONSerialization.jsonObject(with: Data(moved.utf8)) as? [String: Any]
        #expect(
            reply?["window"] as? Int == placed.window, "under \(center) is not window \(placed.window): \(moved)",
            sourceLocation: sourceLocation)
        return placed
    }

    /// gtk3-demo's Run button clicked at its centre: the demo's window opens; then a row far from
    /// the window's corner (where a wrong scale would miss by far) clicked: the demo window is
    /// retitled after it.
    static func clickGTK3sRun(_ setting: Setting, backend: String, window: String, opens: String) async throws {
        let session = try await start(setting, ["env", "GDK_BACKEND=\(backend)", "gtk3-demo"], window: window)
        let locator = ["--window", window, "--role", "button", "--name", "Run"]
        _ = try await expectInItsWindow(session, locator, screen: setting.screen)
        try await session.ctl(["click"] + locator)
        _ = try await session.waitForWindow(opens)
        try await clickRowFarDown(
            setting, session, ["--window", window, "--role", "table cell", "--name", "Model Button"])
        #expect(await session.stop().status == 0)
    }

    /// Clicks the row `locator` finds, checked as `expectInItsWindow` does: the window is retitled
    /// after the row's name (the last word of `locator`).
    static func clickRowFarDown(_ setting: Setting, _ session: Session, _ locator: [String]) async throws {
        _ = try await expectInItsWindow(session, locator, screen: setting.screen)
        try await session.ctl(["click"] + locator)
        try await LocatorEndToEndTests.expectTitle(session, locator.last ?? "")
    }

    /// gtk4-demo's "Application Class" row clicked, then Run: the demo's window opens; then a row
    /// far down clicked: the demo window is retitled after it.
    static func clickGTK4sRowThenRun(_ setting: Setting, backend: String, window: String, opens: String) async throws {
        let session = try await start(setting, ["env", "GDK_BACKEND=\(backend)", "gtk4-demo"], window: window)
        let row = ["--window", window, "--role", "label", "--name", "Application Class"]
        _ = try await expectInItsWindow(session, row, screen: setting.screen)
        try await session.ctl(["click"] + row)
        try await LocatorEndToEndTests.waitUntilGTK4sRunIsSensitive(session)
        let run = ["--window", window, "--role", "button", "--name", "Run"]
        _ = try await expectInItsWindow(session, run, screen: setting.screen)
        try await session.ctl(["click", "--wait", "10"] + run)
        _ = try await session.waitForWindow(opens)
        try await clickRowFarDown(
            setting, session, ["--window", window, "--role", "label", "--name", "Interactive Constraints"])
        #expect(await session.stop().status == 0)
    }

    @Test(
        .enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk3-demo")),
        arguments: Setting.allCases)
    func clickingGTK3sRunOnWaylandLands(_ setting: Setting) async throws {
        try await Self.clickGTK3sRun(setting, backend: "wayland", window: "gtk3-demo", opens: "gtk3-demo-application")
    }

    @Test(
        .enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk3-demo")),
        arguments: Setting.allCases)
    func clickingGTK3sRunUnderXwaylandLands(_ setting: Setting) async throws {
        try await Self.clickGTK3sRun(setting, backend: "x11", window: "Gtk3-demo", opens: "Gtk3-demo-application")
    }

    @Test(
        .enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk4-demo")),
        arguments: Setting.allCases)
    func clickingGTK4sRowThenRunOnWaylandLands(_ setting: Setting) async throws {
        try await Self.clickGTK4sRowThenRun(
            setting, backend: "wayland", window: "org.gtk.Demo4", opens: "org.gtk.Demo4.App")
    }

    @Test(
        .enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk4-demo")),
        arguments: Setting.allCases)
    func clickingGTK4sRowThenRunUnderXwaylandLands(_ setting: Setting) async throws {
        try await Self.clickGTK4sRowThenRun(
            setting, backend: "x11", window: "gtk4-demo", opens: "gtk4-demo-application")
    }
}
