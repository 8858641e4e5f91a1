import Foundation
import Glibc
import Testing

/// strata-ctl's locators on real toolkits: a button found by its name and pressed, checked by
/// what the application does (the window its Run button opens), not by the locator's own say.
@Suite(.serialized) struct LocatorEndToEndTests {
    typealias Session = ControlTests.Session

    static func start() async throws -> Session {
        try await Session.start(["--accessibility", "--size", "1024x768"])
    }

    /// Runs `strata-ctl find …` until it finds something (the toolkit publishes its tree a moment
    /// after its window maps), 20 s at most; its output.
    static func waitToFind(_ session: Session, _ locator: String...) async throws -> String {
        for _ in 0..<200 {
            let result = try await session.ctl(["find"] + locator, expectStatus: nil)
            if result.status == 0 { return result.stdout }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw StrataRun.Failure("nothing found for \(locator.joined(separator: " "))")
    }

    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk3-demo")))
    func pressingGTK3sRunButtonByNameRunsTheDemoOnWayland() async throws {
        let session = try await Self.start()
        try await session.ctl("exec", "--", "env", "GDK_BACKEND=wayland", "gtk3-demo")
        _ = try await session.waitForWindow("gtk3-demo")
        let found = try await Self.waitToFind(session, "--role", "button", "--name", "Run")
        #expect(found.contains("push button \"Run\" at "), "\(found)")
        let press = try await session.ctl("press", "--role", "button", "--name", "Run", "--window", "gtk3-demo")
        #expect(press.stdout.contains("through its accessible action \"click\""), "\(press.stdout)")
        _ = try await session.waitForWindow("gtk3-demo-application")
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk3-demo")))
    func clickingGTK3sRunButtonUnderXwaylandLandsOnIt() async throws {
        let session = try await Self.start()
        try await session.ctl("exec", "--", "env", "GDK_BACKEND=x11", "gtk3-demo")
        _ = try await session.waitForWindow("Gtk3-demo")
        _ = try await Self.waitToFind(session, "--role", "button", "--name", "Run")
        let click = try await session.ctl("click", "--role", "button", "--name", "Run")
        #expect(click.stdout.contains("through a pointer click at "), "\(click.stdout)")
        _ = try await session.waitForWindow("Gtk3-demo-application")
        #expect(await session.stop().status == 0)
    }

    /// GTK 4 counts from the window's frame, GTK 3 from its surface: both land (`Locator`).
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk4-demo")))
    func clickingAGTK4ListRowThenRunOpensThatDemo() async throws {
        let session = try await Self.start()
        try await session.ctl("exec", "--", "env", "GDK_BACKEND=wayland", "gtk4-demo")
        _ = try await session.waitForWindow("org.gtk.Demo4")
        _ = try await Self.waitToFind(session, "--role", "label", "--name", "Application Class")
        try await session.ctl("click", "--role", "label", "--name", "Application Class")
        try await Self.waitUntilGTK4sRunIsSensitive(session)
        try await session.ctl("click", "--role", "button", "--name", "Run", "--wait", "10")
        _ = try await session.waitForWindow("org.gtk.Demo4.App")
        #expect(await session.stop().status == 0)
    }

    /// gtk4-demo's Run is insensitive until a runnable demo is selected (a click on its row):
    /// waits for that, 10 s at most.
    static func waitUntilGTK4sRunIsSensitive(_ session: Session) async throws {
        for _ in 0..<100 {
            let run = try await session.ctl("find", "--role", "button", "--name", "Run", expectStatus: nil)
            if run.stdout.contains("sensitive") && !run.stdout.contains("[focusable visible]") { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
    }

    /// A form filled by name: the entry focused through the toolkit and typed into, OK pressed;
    /// zenity prints what its entry holds.
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("zenity")))
    func aGTKFormIsFilledAndSubmittedByName() async throws {
        let session = try await Self.start()
        let output = session.run.root + "/zenity.out"
        try await session.ctl(
            "exec", "--", "sh", "-c",
            "GDK_BACKEND=wayland exec zenity --entry --title Form --text 'Your name' > '\(output)'")
        _ = try await Self.waitToFind(session, "--window", "title:Form", "--role", "entry")
        let typed = try await session.ctl("type-into", "--window", "title:Form", "--role", "entry", "hello strata")
        #expect(typed.stdout.contains("then typed 12 characters"), "\(typed.stdout)")
        try await session.ctl("press", "--window", "title:Form", "--role", "button", "--name", "OK")
        let said = await StrataRun.poll(timeout: 20) { () -> String? in
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return text.isEmpty ? nil : text
        }
        #expect(said == "hello strata\n")
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && StrataRun.isInstalled("gtk3-demo")))
    func anAmbiguousOrEmptyMatchSaysSoAndListsCandidates() async throws {
        let session = try await Self.start()
        try await session.ctl("exec", "--", "env", "GDK_BACKEND=wayland", "gtk3-demo")
        _ = try await session.waitForWindow("gtk3-demo")
        _ = try await Self.waitToFind(session, "--role", "button", "--name", "Run")
        let ambiguous = try await session.ctl("press", "--role", "button", expectStatus: 1)
        #expect(ambiguous.stderr.contains("elements match role \"button\"; name one"), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("push button \"Run\""))
        let empty = try await session.ctl("click", "--name", "No Such Button", expectStatus: 1)
        #expect(empty.stderr.contains("nothing matches name \"No Such Button\"; candidates:"), "\(empty.stderr)")
        #expect(empty.stderr.contains("\"Run\""))
        let noWindow = try await session.ctl("find", "--window", "nonesuch", expectStatus: 1)
        #expect(noWindow.stderr.contains("nonesuch"), "\(noWindow.stderr)")
        #expect(await session.stop().status == 0)
    }

    /// A link in a web page, found by its role and name in Chromium's tree (its renderer's
    /// accessibility forced on) and clicked with the pointer: the page's script retitles the
    /// window.
    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && ReportEndToEndTests.chromium != nil,
            "chromium is missing (apt-get install chromium)"))
    func clickingALinkInChromiumRunsThePagesScript() async throws {
        let session = try await Self.start()
        try await Self.openLinkPage(session, platform: "wayland")
        let found = try await session.ctl("find", "--role", "link", "--name", "Go there", "--wait", "60")
        #expect(found.stdout.contains("link \"Go there\" at "), "\(found.stdout)")
        let click = try await session.ctl("click", "--role", "link", "--name", "Go there")
        #expect(click.stdout.contains("through a pointer click at "), "\(click.stdout)")
        try await Self.expectTitle(session, "Clicked")
        #expect(await session.stop().status == 0)
    }

    /// Expects a window titled `title` within 20 s (a page's script retitles its window).
    static func expectTitle(
        _ session: Session, _ title: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var titled = false
        for _ in 0..<200 where !titled {
            titled = try await session.windows().contains { $0["title"] as? String == title }
            if !titled { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        let titles = try await session.windows().compactMap { $0["title"] as? String }
        #expect(titled, "no window is titled \(title): \(titles)", sourceLocation: sourceLocation)
    }

    /// A page whose link "Go there" retitles the window "Clicked".
    static let linkPage = """
        <!doctype html><html><head><title>Links</title></head><body style="font-size:32px">
        <a href="#" onclick="document.title = 'Clicked'; return false;">Go there</a>
        </body></html>
        """

    /// Opens Chromium (`--ozone-platform=PLATFORM`: wayland, x11) on `page` (by default
    /// `linkPage`), its renderer's accessibility forced on unless `forcingAccessibility` is false.
    static func openLinkPage(
        _ session: Session, platform: String, forcingAccessibility: Bool = true, page: String = linkPage
    ) async throws {
        let chromium = try #require(ReportEndToEndTests.chromium)
        let folder = session.run.root
        try page.write(toFile: folder + "/page.html", atomically: false, encoding: .utf8)
        try await session.ctl(
            "exec", "--", "sh", "-c",
            """
            HOME='\(folder)' exec '\(chromium)' --ozone-platform=\(platform) --no-sandbox --test-type --disable-gpu \
              --disable-dev-shm-usage --no-first-run --user-data-dir='\(folder)/chromium' \
              \(forcingAccessibility ? "--force-renderer-accessibility" : "") --app='file://\(folder)/page.html' \
              > '\(folder)/chromium.log' 2>&1
            """)
    }

    /// Chromium started without `--force-renderer-accessibility` publishes its window but not its
    /// page: an empty match says so, and how to start it.
    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && ReportEndToEndTests.chromium != nil,
            "chromium is missing (apt-get install chromium)"))
    func anEmptyMatchInChromiumWithoutItsSwitchNamesTheSwitch() async throws {
        let session = try await Self.start()
        try await Self.openLinkPage(session, platform: "wayland", forcingAccessibility: false)
        // Its window on the bus first (the toolkit's frame), then the link looked for.
        _ = try await session.ctl("find", "--role", "frame", "--wait", "60")
        let empty = try await session.ctl("find", "--role", "link", "--name", "Go there", expectStatus: 1)
        #expect(empty.stderr.contains("nothing matches"), "\(empty.stderr)")
        #expect(
            empty.stderr.contains(
                "it publishes its pages' elements only when started with --force-renderer-accessibility"),
            "\(empty.stderr)")
        #expect(await session.stop().status == 0)
    }

    @Test func withoutTheBusTheLocatorsSayHowToGetOne() async throws {
        let session = try await Session.start()
        let result = try await session.ctl("find", "--name", "OK", expectStatus: 1)
        #expect(
            result.stderr.contains("this Strata has no accessibility bus: start it with --accessibility"),
            "\(result.stderr)")
        #expect(await session.stop().status == 0)
    }
}
