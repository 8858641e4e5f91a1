import Foundation
import Glibc
import Testing

/// strata-ctl's locators on Firefox ESR: a link in a local page found by its role and name and
/// clicked with the pointer, on Wayland and under Xwayland, checked by the page's script
/// retitling the window. The window is first taken out of maximized, resized and moved off the
/// screen's corner, so that an element placed from the wrong origin (Firefox on Wayland counts
/// from its surface, its client-side shadows included) is clicked beside the link and the title
/// stays. Firefox publishes its tree because Strata's bus says accessibility is on
/// (`IsEnabled`): the profile does not force it.
@Suite(.serialized) struct FirefoxLocatorEndToEndTests {
    typealias Session = ControlTests.Session

    static let firefox = ["/usr/bin/firefox-esr", "/usr/lib/firefox-esr/firefox-esr"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The page: a link whose script counts its clicks in the title.
    static let page = """
        <!doctype html><html><head><title>Links</title></head><body style="font-size:20px">
        <p>A page with a link</p>
        <a href="#" onclick="window.clicks = (window.clicks || 0) + 1; document.title = 'Clicked ' + window.clicks; return false;">Go there</a>
        </body></html>
        """

    /// A throwaway profile's preferences: no first-run or welcome pages, no default-browser
    /// question, no telemetry, updates or session restore, no preloaded new-tab page (a second
    /// document with links of its own).
    static let preferences = [
        ("browser.shell.checkDefaultBrowser", "false"),
        ("browser.startup.homepage_override.mstone", "\"ignore\""),
        ("startup.homepage_welcome_url", "\"\""),
        ("startup.homepage_welcome_url.additional", "\"\""),
        ("browser.aboutwelcome.enabled", "false"),
        ("browser.startup.page", "0"),
        ("browser.newtabpage.enabled", "false"),
        ("browser.newtab.preload", "false"),
        ("browser.sessionstore.resume_from_crash", "false"),
        ("datareporting.policy.dataSubmissionEnabled", "false"),
        ("datareporting.healthreport.uploadEnabled", "false"),
        ("toolkit.telemetry.enabled", "false"),
        ("toolkit.telemetry.unified", "false"),
        ("app.update.auto", "false"),
        ("app.update.enabled", "false"),
        ("extensions.update.enabled", "false"),
        ("toolkit.startup.max_resumed_crashes", "-1"),
    ].map { "user_pref(\"\($0.0)\", \($0.1));" }.joined(separator: "\n")

    /// Starts Firefox in `session` with a profile and HOME in its folder, `page` open, with
    /// `backend` (environment assignments) before it.
    static func startFirefox(_ session: Session, _ backend: String, page: String = Self.page) async throws {
        let firefox = try #require(Self.firefox)
        let folder = session.run.root
        let profile = folder + "/firefox-profile"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        try preferences.write(toFile: profile + "/user.js", atomically: false, encoding: .utf8)
        try page.write(toFile: folder + "/page.html", atomically: false, encoding: .utf8)
        try await session.ctl(
            "exec", "--", "sh", "-c",
            """
            HOME='\(folder)' \(backend) exec '\(firefox)' --profile '\(profile)' --no-remote --new-instance \
              'file://\(folder)/page.html' > '\(folder)/firefox.log' 2>&1
            """)
    }

    /// The link found, its window restored to 700x500 at 150,120 and Firefox's tree showing that
    /// size; the link's line from `find`.
    static func placeWindow(_ session: Session) async throws -> String {
        let found = try await session.ctl(
            ["find", "--role", "link", "--name", "Go there", "--wait", "90"], expectStatus: nil)
        let log = (try? String(contentsOfFile: session.run.root + "/firefox.log", encoding: .utf8)) ?? ""
        try #require(found.stdout.contains("link \"Go there\" at "), "no link: \(found.stderr)\nFirefox said: \(log)")
        let window = try #require(
            try await session.windows().first { $0["app_id"] as? String == "firefox-esr" }?["id"] as? Int)
        try await session.ctl("restore", "\(window)")
        try await session.ctl("resize", "\(window)", "700x500", "--wait", "30")
        try await session.ctl("move", "\(window)", "--to", "150,120")
        // Firefox's own rectangle of its window follows the new size a moment after it draws it.
        var frame = ""
        for _ in 0..<300 {
            frame = try await session.ctl(["find", "--window", "\(window)", "--role", "frame"], expectStatus: nil)
                .stdout
            if frame.contains(",700x500 ") { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(frame.contains("frame \"Links — Mozilla Firefox\" at 150,120,700x500 "), "\(frame)")
        return try await session.ctl("find", "--role", "link", "--name", "Go there").stdout
    }

    /// Clicks the link and waits for the page's script to retitle the window.
    static func clickAndSeeTheTitle(_ session: Session) async throws {
        let click = try await session.ctl("click", "--role", "link", "--name", "Go there")
        #expect(click.stdout.contains("through a pointer click at "), "\(click.stdout)")
        try await waitForTitle(session, "Clicked 1")
    }

    /// Waits (20 s at most) for a window titled `title` — Mozilla Firefox.
    static func waitForTitle(_ session: Session, _ title: String) async throws {
        var titled = false
        for _ in 0..<200 where !titled {
            titled = try await session.windows().contains { $0["title"] as? String == title + " — Mozilla Firefox" }
            if !titled { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        let titles = try await session.windows().compactMap { $0["title"] as? String }
        #expect(titled, "the page's title is not \(title): \(titles)")
    }

    /// Starts Firefox with `backend`, places its window, checks the link's place and that the
    /// window is of `kind`, clicks the link and sees the title change; Strata stopped whatever
    /// fails (its clients with it).
    static func clickTheLink(backend: String, kind: String) async throws {
        let session = try await LocatorEndToEndTests.start()
        try await session.stopping {
            try await startFirefox(session, backend)
            let link = try await placeWindow(session)
            // The page's body margin (8) right of the frame's corner, not the shadows' 26 more.
            #expect(link.hasPrefix("link \"Go there\" at 158,"), "\(link)")
            let window = try await session.windows().first { $0["app_id"] as? String == "firefox-esr" }
            #expect(window?["kind"] as? String == kind)
            try await clickAndSeeTheTitle(session)
            // `press` uses the link's own action, which Firefox calls `jump`.
            let press = try await session.ctl("press", "--role", "link", "--name", "Go there")
            #expect(press.stdout.contains("through its accessible action \"jump\""), "\(press.stdout)")
            try await waitForTitle(session, "Clicked 2")
        }
    }

    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && firefox != nil,
            "firefox-esr is missing (apt-get install firefox-esr)"))
    func clickingALinkInFirefoxOnWaylandRunsThePagesScript() async throws {
        try await Self.clickTheLink(backend: "MOZ_ENABLE_WAYLAND=1 GDK_BACKEND=wayland", kind: "wayland")
    }

    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && firefox != nil && StrataRun.isInstalled("Xwayland"),
            "firefox-esr or Xwayland is missing"))
    func clickingALinkInFirefoxUnderXwaylandRunsThePagesScript() async throws {
        try await Self.clickTheLink(backend: "MOZ_ENABLE_WAYLAND=0 GDK_BACKEND=x11", kind: "x11")
    }

    /// What makes Firefox (and Qt) publish their trees with no switch of their own: the launcher
    /// on Strata's bus says accessibility is on.
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus))
    func theBusSaysAccessibilityIsOn() async throws {
        let result = try await StrataRun.run(
            ["--accessibility", "--xwayland", "off"],
            command: [
                "dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                "org.freedesktop.DBus.Properties.Get", "string:org.a11y.Status", "string:IsEnabled",
            ], timeout: 30)
        #expect(result.stdout.contains("boolean true"), "\(result.stdout)")
    }

    /// The bus's services see no X display of Strata's environment (a nested Strata's parent
    /// display): the launcher would put its bus on that display's root window, for the user's
    /// own X clients to find.
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus))
    func theBusServicesSeeNoXDisplay() async throws {
        let script = """
            dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null || exit 3
            services=0
            for environ in /proc/[0-9]*/environ; do
                tr '\\0' '\\n' < "$environ" 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR/strata-wayland-0.a11y" || continue
                services=$((services + 1))
                tr '\\0' '\\n' < "$environ" | grep '^DISPLAY=' && echo "leaked to $environ"
            done
            echo "services=$services"
            """
        let result = try await StrataRun.run(
            ["--accessibility", "--xwayland", "off", "--backend", "headless"], command: ["/bin/sh", "-c", script],
            environment: ["DISPLAY": ":97"], timeout: 30)
        #expect(!result.stdout.contains("leaked"), "\(result.stdout)")
        #expect(result.stdout.contains("services=") && !result.stdout.contains("services=0"), "\(result.stdout)")
    }
}
