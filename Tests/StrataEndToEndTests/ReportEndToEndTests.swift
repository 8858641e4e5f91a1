import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// `strata-ctl report` opened for real: Debian's chromium, headless, runs the page's script
/// (its DOM afterwards shows the stacks and the timeline, its console has no error) and takes a
/// screenshot that shows the windows.
@Suite(.serialized) struct ReportEndToEndTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// One chromium run, with a profile of its own. Chromium ends early (killed by SIGTRAP, its
    /// zygote's pipe broken) when its profile folder is made under a umask of 0177, which is why
    /// `UnixSocket.listen` does not touch the umask.
    func chromiumRun(_ arguments: [String], in folder: String) async throws -> ProcessResult {
        let chromium = try #require(Self.chromium, "Debian's chromium is needed (apt-get install chromium)")
        let profile = try ReplayEndToEndTests.folder()
        let argv =
            [
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--enable-logging=stderr", "--v=0", "--user-data-dir=\(profile.path)",
            ] + arguments
        let result = try await ProcessResult.run(
            argv, environment: ["HOME": profile.path], directory: folder, timeout: 90)
        withExtendedLifetime(profile) {}
        return result
    }

    @Test(.enabled(if: chromium != nil, "Debian's chromium is needed (apt-get install chromium)"))
    func theReportOfARecordedExperimentShowsItsStacksTimelineAndThumbnails() async throws {
        let ctl = try #require(ControlTests.ctl)
        let folder = try ReplayEndToEndTests.folder()
        let trace = folder.path + "/alert.trace", page = folder.path + "/report.html"
        let recorded = try await StrataRun.run(
            ["--size", "1280x720", "--record", trace],
            command: [ctl, "run", ControlTests.examples + "/alert-above-key-window.strata"],
            environment: ["PATH": ControlTests.path], timeout: 60)
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")
        let made = try await ProcessResult.run(
            [ctl, "report", trace, "-o", page], environment: [:], directory: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("http://") || html.contains("http://www.w3.org/2000/svg"), "no network")
        #expect(!html.contains("https://") && !html.contains(" src="), "self-contained")

        // The script ran: the DOM holds the last point's stacks, the timeline and the thumbnails.
        let dom = try await chromiumRun(["--dump-dom", "file://" + page], in: folder.path)
        #expect(dom.status == 0, "chromium \(dom.ending): \(dom.stderr)")
        #expect(dom.stdout.contains("1 example.document ★ key"), "the key window marked")
        #expect(dom.stdout.contains("2 example.alert</span>"))
        #expect(dom.stdout.contains("level alert") && dom.stdout.contains("level normal"))
        #expect(dom.stdout.components(separatedBy: "class=\"point ").count - 1 >= 15, "the timeline's points")
        #expect(dom.stdout.contains("windowDidChangeLevel window 2 → alert ← command set-level"))
        // Each key and stacking change with its cause: a map by its client, the successor of a hide.
        #expect(dom.stdout.contains("windowDidBecomeKey window 1 ← map xdg_toplevel map by pid "))
        #expect(dom.stdout.contains("windowDidBecomeKey window 1 ← successor hide window="))
        // The Focus panel: the run's row and one per app, key switches by cause.
        #expect(dom.stdout.contains(#"<section id="focus">"#) && dom.stdout.contains("<td>app example.document</td>"))
        #expect(dom.stdout.contains("<td>run</td>") && dom.stdout.contains("map 1"), "\(dom.stdout)")
        #expect(
            dom.stdout.components(separatedBy: "class=\"thumb").count - 1 >= 2, "thumbnails where the picture changed")
        #expect(
            dom.stdout.components(separatedBy: #"src="data:image/png;base64,iVBORw0KGgo"#).count - 1 >= 2,
            "the thumbnails are the recorded pictures (the trace's image lines)")
        #expect(
            !dom.stderr.contains("Uncaught") && !dom.stderr.contains(":ERROR:CONSOLE"),
            "the page's script has no errors: \(dom.stderr)")

        // The screenshot shows them: the key window's gold outline, the screens' dark thumbnails.
        let shot = folder.path + "/report.png"
        let result = try await chromiumRun(
            ["--window-size=1400,1000", "--screenshot=\(shot)", "file://" + page], in: folder.path)
        #expect(result.status == 0, "chromium \(result.ending): \(result.stderr)")
        let pixels = try PNGFile.read(path: shot)
        #expect(pixels.width == 1400 && pixels.height == 1000)
        let gold = pixels.argb.filter { $0 & 0xffffff == 0xd4a017 }.count
        let thumbnail = pixels.argb.filter { $0 & 0xffffff == 0x202428 }.count
        #expect(gold > 300, "the key window's outline (\(gold) pixels)")
        #expect(thumbnail > 20_000, "the screen thumbnails (\(thumbnail) pixels)")
    }

    @Test func aBadTraceGetsNoReportAndStatusTwo() async throws {
        let ctl = try #require(ControlTests.ctl)
        let folder = try ReplayEndToEndTests.folder()
        try "not a trace\n".write(toFile: folder.path + "/bad.trace", atomically: true, encoding: .utf8)
        let result = try await ProcessResult.run(
            [ctl, "report", "bad.trace", "-o", "out.html"], environment: [:], directory: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.trace:1: not a JSON line"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.html"))
    }
}
