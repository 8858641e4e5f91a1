import Foundation
import Glibc
import StrataRender
import Testing

/// Debian's Chromium as a Wayland client of Strata (`--ozone-platform=wayland`, software
/// drawing): a web page of known colours is on the screen to the pixel, typed text reaches its
/// focused input, a click reaches the page at the point clicked, and `strata-ctl close` closes
/// it.
@Suite(.serialized) struct ChromiumClientTests {
    /// The page: a green background, a red 120×80 box at (40, 40) that puts the click's page
    /// coordinates in the title, and a focused input that puts what is typed in the title.
    static let page = """
        <!doctype html><html><head><title>start</title><style>
        html, body { margin: 0; background: #2a7f3e; }
        #box { position: absolute; left: 40px; top: 40px; width: 120px; height: 80px; background: #d02030; }
        #text { position: absolute; left: 200px; top: 40px; }
        </style></head><body>
        <div id="box" onclick="document.title = 'clicked ' + event.clientX + ',' + event.clientY"></div>
        <input id="text" autofocus oninput="document.title = 'typed:' + this.value">
        </body></html>
        """
    static let green: UInt32 = 0xff2a_7f3e, red: UInt32 = 0xffd0_2030

    @Test(.enabled(if: ReportEndToEndTests.chromium != nil, "chromium is missing (apt-get install chromium)"))
    func aWebPageIsDrawnToThePixelAndGetsTypedTextAndClicks() async throws {
        let chromium = try #require(ReportEndToEndTests.chromium)
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "800x600"])
        let folder = session.run.root
        try Self.page.write(toFile: folder + "/page.html", atomically: false, encoding: .utf8)
        // --test-type: no "unsupported flag" bar above the page for --no-sandbox (the tests run as root).
        _ = try await session.ctl(
            "exec", "--", "sh", "-c",
            """
            HOME='\(folder)' exec '\(chromium)' --ozone-platform=wayland --no-sandbox --test-type --disable-gpu \
              --disable-dev-shm-usage --no-first-run --user-data-dir='\(folder)/chromium' --app='file://\(folder)/page.html' \
              > '\(folder)/chromium.log' 2>&1
            """)
        func page() async throws -> (id: Int, title: String, x: Int, y: Int)? {
            guard
                let window = try await session.windows().first(where: {
                    ($0["app_id"] as? String)?.hasPrefix("chrome-") == true
                }),
                let id = window["id"] as? Int, let title = window["title"] as? String,
                let frame = window["frame"] as? [String: Any], let x = frame["x"] as? Int, let y = frame["y"] as? Int
            else { return nil }
            return (id, title, x, y)
        }
        func waitForTitle(_ title: String) async throws -> Bool {
            for _ in 0..<400 {
                if try await page()?.title == title { return true }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            return false
        }
        let log = { (try? String(contentsOfFile: folder + "/chromium.log", encoding: .utf8))?.suffix(2000) ?? "" }
        #expect(try await waitForTitle("start"), "no Chromium window: \(log())")
        let window = try #require(try await page())

        // The box, exactly: 120×80 red pixels at (40, 40) of the page, green around it.
        var shot: PNGFile.Pixels?
        for _ in 0..<400 {
            _ = try await session.ctl("screenshot", "-o", "chromium.png")
            let image = try PNGFile.read(path: folder + "/chromium.png")
            if image.argb.filter({ $0 == Self.red }).count == 120 * 80 {
                shot = image
                break
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        let image = try #require(shot, "the page's box never showed: \(log())")
        let (left, top) = (window.x + 40, window.y + 40)
        for (x, y) in [(left, top), (left + 119, top), (left, top + 79), (left + 119, top + 79)] {
            #expect(image.at(x, y) == Self.red, "\(x),\(y)")
        }
        for (x, y) in [(left - 1, top), (left + 120, top + 40), (left + 60, top - 1), (left + 60, top + 80)] {
            #expect(image.at(x, y) == Self.green, "\(x),\(y)")
        }

        // Keys: the focused input gets the text.
        _ = try await session.ctl("input", "type", "hello")
        #expect(try await waitForTitle("typed:hello"))
        // The pointer: a click at (100, 80) of the page.
        _ = try await session.ctl("input", "pointer", "move", String(window.x + 100), String(window.y + 80))
        _ = try await session.ctl("input", "pointer", "click")
        #expect(try await waitForTitle("clicked 100,80"))

        _ = try await session.ctl("close", String(window.id))
        var closed = false
        for _ in 0..<400 where !closed {
            closed = try await page() == nil
            if !closed { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        #expect(closed, "the window did not close: \(log())")
        #expect(await session.stop().status == 0)
    }
}
