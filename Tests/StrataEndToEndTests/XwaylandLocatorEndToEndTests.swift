import Foundation
import Glibc
import Testing

/// strata-ctl's locators on X11 toolkits under Xwayland: GTK 4 and Chromium, each window moved
/// off the screen's corner (so an origin mistaken for X's root or for the X window's corner
/// shows), each checked by what the application does.
@Suite(.serialized) struct XwaylandLocatorEndToEndTests {
    typealias Session = ControlTests.Session

    /// GTK 4 under X11 draws a border inside its X window and counts its elements from inside it
    /// (`ToolkitOrigin.inset`): its toplevel lies in the middle of the X window, as the pixels show
    /// (5 on each side), and a row then Run clicked by the pointer open the demo.
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk4-demo")))
    func clickingAGTK4RowThenRunUnderXwaylandOpensThatDemo() async throws {
        let session = try await LocatorEndToEndTests.start()
        try await session.ctl("exec", "--", "env", "GDK_BACKEND=x11", "gtk4-demo")
        let window = try await session.waitForWindow("gtk4-demo")
        try await session.ctl("move", String(window), "--to", "101,53")
        let top = try await ScaledLocatorEndToEndTests.place(session, ["--window", "gtk4-demo", "--role", "frame"])
        let frame = try #require(
            try await session.windows().first { $0["id"] as? Int == window }?["frame"] as? [String: Int])
        let (fx, fy) = (Double(frame["x"] ?? 0), Double(frame["y"] ?? 0))
        let (fw, fh) = (Double(frame["width"] ?? 0), Double(frame["height"] ?? 0))
        let left = top.x - fx, right = fx + fw - top.x - top.width
        let above = top.y - fy, below = fy + fh - top.y - top.height
        #expect(left > 0 && left == right && above == below && above == left, "\(top.text) in \(frame)")

        let row = ["--window", "gtk4-demo", "--role", "label", "--name", "Application Class"]
        _ = try await ScaledLocatorEndToEndTests.expectInItsWindow(session, row, screen: 1)
        try await session.ctl(["click"] + row)
        try await LocatorEndToEndTests.waitUntilGTK4sRunIsSensitive(session)
        let click = try await session.ctl(
            "click", "--window", "gtk4-demo", "--role", "button", "--name", "Run", "--wait", "10")
        #expect(click.stdout.contains("through a pointer click at "), "\(click.stdout)")
        _ = try await session.waitForWindow("gtk4-demo-application")
        #expect(await session.stop().status == 0)
    }

    /// Chromium under X11 counts from its X window (it subtracts its root position itself): a
    /// link in its page clicked by the pointer runs the page's script, which retitles the window.
    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && ReportEndToEndTests.chromium != nil,
            "chromium is missing (apt-get install chromium)"))
    func clickingALinkInChromiumUnderXwaylandRunsThePagesScript() async throws {
        let session = try await LocatorEndToEndTests.start()
        try await LocatorEndToEndTests.openLinkPage(session, platform: "x11")
        let link = ["--role", "link", "--name", "Go there"]
        let placed = try await ScaledLocatorEndToEndTests.place(session, link)
        try await session.ctl("move", String(placed.window), "--to", "203,101")
        _ = try await ScaledLocatorEndToEndTests.expectInItsWindow(session, link, screen: 1)
        let click = try await session.ctl(["click"] + link)
        #expect(click.stdout.contains("through a pointer click at "), "\(click.stdout)")
        try await LocatorEndToEndTests.expectTitle(session, "Clicked")
        #expect(await session.stop().status == 0)
    }
}
