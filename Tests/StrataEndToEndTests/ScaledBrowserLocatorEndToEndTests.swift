import Foundation
import Glibc
import Testing

/// strata-ctl's locators on Chromium and Firefox on Wayland at scale 2, at 1.5 and on a second
/// screen (`ScaledLocatorEndToEndTests.Setting`): a link placed far from the page's corner, where
/// extents in device pixels or from the wrong origin would miss it by far, is found inside its
/// window's frame with that window under its centre, and a pointer click on it runs the page's
/// script (the window is retitled).
@Suite(.serialized) struct ScaledBrowserLocatorEndToEndTests {
    typealias Session = ControlTests.Session
    typealias Setting = ScaledLocatorEndToEndTests.Setting

    /// The page: one link 300 px right and 240 px down of the page's corner; a click retitles the
    /// window "Clicked".
    static let page = """
        <!doctype html><html><head><title>Links</title></head><body style="margin:0;font-size:24px">
        <a style="position:absolute;left:300px;top:240px" href="#"
           onclick="document.title = 'Clicked'; return false;">Go there</a>
        </body></html>
        """

    static let link = ["--role", "link", "--name", "Go there"]

    /// Waits for the link, restores its window to 700×500 and moves it to 37,23 on the setting's
    /// screen, checks the link's place there (the toolkit's tree after the move) and clicks it:
    /// the window is retitled `title`.
    static func placeAndClick(_ session: Session, _ setting: Setting, title: String) async throws {
        _ = try await session.ctl(["find", "--wait", "90"] + link)
        let window = try await ScaledLocatorEndToEndTests.place(session, link).window
        try await session.ctl("restore", String(window))
        try await session.ctl("resize", String(window), "700x500", "--wait", "30")
        try await session.ctl("move", String(window), "--screen", String(setting.screen), "--to", "37,23")
        let placed = try await ScaledLocatorEndToEndTests.expectInItsWindow(session, link, screen: setting.screen)
        // The link is at least its offset in the page right of and below the frame's corner.
        let frame = try #require(
            try await session.windows().first { $0["id"] as? Int == window }?["frame"] as? [String: Int])
        #expect(
            placed.x >= Double((frame["x"] ?? 0) + 300) && placed.y >= Double((frame["y"] ?? 0) + 240),
            "\(placed.text) in \(frame)")
        try await session.ctl(["click"] + link)
        try await LocatorEndToEndTests.expectTitle(session, title)
    }

    /// A Strata for `setting` with `open` run in it, then `placeAndClick`; Strata stopped
    /// whatever fails (its clients with it).
    static func clickTheLink(
        _ setting: Setting, title: String, open: (Session) async throws -> Void
    ) async throws {
        let session = try await Session.start(["--accessibility"] + setting.arguments)
        try await session.stopping {
            if setting == .secondScreen { try await session.ctl("screen", "scale", "2", "1.5") }
            try await open(session)
            try await placeAndClick(session, setting, title: title)
        }
    }

    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && ReportEndToEndTests.chromium != nil,
            "chromium is missing (apt-get install chromium)"),
        arguments: Setting.allCases)
    func clickingALinkInChromiumOnWaylandLands(_ setting: Setting) async throws {
        try await Self.clickTheLink(setting, title: "Clicked") { session in
            try await LocatorEndToEndTests.openLinkPage(session, platform: "wayland", page: Self.page)
        }
    }

    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && FirefoxLocatorEndToEndTests.firefox != nil,
            "firefox-esr is missing (apt-get install firefox-esr)"),
        arguments: Setting.allCases)
    func clickingALinkInFirefoxOnWaylandLands(_ setting: Setting) async throws {
        try await Self.clickTheLink(setting, title: "Clicked — Mozilla Firefox") { session in
            try await FirefoxLocatorEndToEndTests.startFirefox(
                session, "MOZ_ENABLE_WAYLAND=1 GDK_BACKEND=wayland", page: Self.page)
        }
    }
}
