import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// `strata-ctl screenshot --window` and `strata-ctl compare-screenshot` with the built binaries and
/// real clients: a covered window's own pixels, and the golden check against a baseline.
@Suite struct GoldenScreenshotEndToEndTests {
    private func frame(_ session: ControlTests.Session, _ appID: String) async throws -> (
        x: Int, y: Int, width: Int, height: Int
    ) {
        let window = try #require(try await session.windows().first { $0["app_id"] as? String == appID })
        let frame = try #require(window["frame"] as? [String: Any])
        return (
            try #require(frame["x"] as? Int), try #require(frame["y"] as? Int),
            try #require(frame["width"] as? Int), try #require(frame["height"] as? Int)
        )
    }

    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func aCoveredColourWindowsScreenshotIsExactlyItsOwnPixels() async throws {
        let session = try await ControlTests.Session.start()
        let folder = try ScratchFolder()
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.below", "--size", "200x160",
            "--color", "ff0000", "--inner", "00ff00", "--seconds", "600")
        _ = try await session.waitForWindow("e2e.below")
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.cover", "--size", "300x300",
            "--color", "0000ff", "--seconds", "600")
        _ = try await session.waitForWindow("e2e.cover")
        try await session.ctl("move", "e2e.below", "--to", "20,20")
        try await session.ctl("move", "e2e.cover", "--to", "0,0")
        try await session.ctl("settle")
        let screen = folder.path + "/screen.png"
        try await session.ctl("screenshot", "-o", screen)
        #expect(try PNGFile.read(path: screen).at(120, 100) == 0xff00_00ff, "the blue window covers it on screen")

        let below = folder.path + "/below.png"
        try await session.ctl("screenshot", "--window", "e2e.below", "-o", below)
        let pixels = try PNGFile.read(path: below)
        #expect(pixels.width == 200 && pixels.height == 160)
        // strata-color-client: the middle half in the inner colour, the rest in the outer one.
        var wrong = 0
        for y in 0..<160 {
            for x in 0..<200 {
                let inner = (50..<150).contains(x) && (40..<120).contains(y)
                if pixels.at(x, y) != (inner ? 0xff00_ff00 : 0xffff_0000) { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels are not the window's own")

        // The golden check, done by Strata.
        let baseline = folder.path + "/baseline.png"
        let missing = try await session.ctl("compare-screenshot", baseline, "--window", "e2e.below", expectStatus: 2)
        #expect(missing.stderr.contains("there is no baseline"), "\(missing.stderr)")
        #expect(
            try await session.ctl("compare-screenshot", baseline, "--window", "e2e.below", "--update").stdout.hasPrefix(
                "updated"))
        #expect(
            try await session.ctl("compare-screenshot", baseline, "--window", "e2e.below").stdout.hasPrefix(
                "match: 0 of 32000"))
        try await session.ctl("move", "e2e.cover", "--to", "100,100")
        try await session.ctl("compare-screenshot", baseline, "--window", "e2e.below")

        // Another window of the same name and size, of another inner colour: it differs.
        try await session.ctl("close", "e2e.below")
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.below", "--size", "200x160",
            "--color", "ff0000", "--inner", "ffff00", "--seconds", "600")
        _ = try await session.waitForWindow("e2e.below")
        try await session.ctl("settle")
        let actual = folder.path + "/actual.png", diff = folder.path + "/diff.png"
        let differs = try await session.ctl(
            "compare-screenshot", baseline, "--window", "e2e.below", "--actual", actual, "--diff", diff,
            expectStatus: 1)
        #expect(
            differs.stdout.hasPrefix("differ: 8000 of 32000 pixels differ (25.0%), within 50,40,100x80"),
            "\(differs.stdout)")
        #expect(try PNGFile.read(path: actual).at(100, 80) == 0xffff_ff00)
        #expect(try PNGFile.read(path: diff).at(100, 80) == 0xffff_0000)
        try await session.ctl("compare-screenshot", baseline, "--window", "e2e.below", "--mask", "50,40,100x80")
        try await session.ctl("compare-screenshot", baseline, "--window", "e2e.below", "--max-diff", "25%")
        let unknown = try await session.ctl("compare-screenshot", baseline, "--window", "e2e.nobody", expectStatus: 2)
        #expect(unknown.stderr.contains("unknown_window"), "\(unknown.stderr)")
        #expect(await session.stop().status == 0)
    }

    /// In an experiment, a `compare-screenshot` line beyond the tolerance fails the line.
    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func anExperimentsCompareScreenshotLineFailsWhenThePictureDiffers() async throws {
        let folder = try ScratchFolder()
        let file = folder.path + "/golden.strata"
        try """
        exec -- strata-color-client --app-id e2e.golden --color ff0000 --size 100x80 --seconds 600
        wait-window e2e.golden
        settle
        compare-screenshot \(folder.path)/golden.png --window e2e.golden --update
        compare-screenshot \(folder.path)/golden.png --window e2e.golden
        compare-screenshot \(folder.path)/golden.png --window e2e.golden --mask 0,0,10x10 --max-diff 0
        compare-screenshot \(folder.path)/golden.png

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await StrataRun.run(
            ["--size", "320x240"], command: ["strata-ctl", "run", file],
            environment: ["PATH": ControlTests.path], expecting: .status(1))
        #expect(
            result.stderr.contains(
                "golden.strata:7: compare-screenshot: differ: the pictures differ in size: 100x80 and 320x240"),
            "\(result.stderr)")
    }

    /// foot under a colour window: its image is what the screen shows where nothing covers it, and
    /// not the cover's colour where the cover is.
    @Test(
        .enabled(
            if: ControlTests.ready && StrataRun.isInstalled("foot"),
            "foot, strata-ctl or strata-color-client is missing"))
    func aCoveredFootsScreenshotIsItsOwnPixels() async throws {
        let session = try await ControlTests.Session.start()
        let folder = try ScratchFolder()
        try await session.ctl(
            "exec", "--", "foot", "--app-id", "e2e.foot", "sh", "-c", "printf 'golden pixels\\n'; exec sleep 600")
        _ = try await session.waitForWindow("e2e.foot")
        try await session.ctl("move", "e2e.foot", "--to", "10,10")
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.cover", "--size", "120x80",
            "--color", "ff00ff", "--seconds", "600")
        _ = try await session.waitForWindow("e2e.cover")
        try await session.ctl("move", "e2e.cover", "--to", "40,40")
        try await session.ctl("settle", "--frames", "3", "--timeout", "20")
        let foot = try await frame(session, "e2e.foot")
        let screen = folder.path + "/screen.png", image = folder.path + "/foot.png"
        try await session.ctl("screenshot", "-o", screen)
        try await session.ctl("screenshot", "--window", "e2e.foot", "-o", image)
        let shown = try PNGFile.read(path: screen), own = try PNGFile.read(path: image)
        #expect(own.width == foot.width && own.height == foot.height)
        var covered = 0, uncoveredDifferent = 0
        for y in 0..<own.height where foot.y + y < shown.height {
            for x in 0..<own.width where foot.x + x < shown.width {
                let sx = foot.x + x, sy = foot.y + y
                if (40..<160).contains(sx) && (40..<120).contains(sy) {
                    if own.at(x, y) == 0xffff_00ff { covered += 1 }
                } else if own.at(x, y) != shown.at(sx, sy) {
                    uncoveredDifferent += 1
                }
            }
        }
        #expect(covered == 0, "the cover's colour is in foot's own image")
        #expect(uncoveredDifferent == 0, "where nothing covers it, foot's image is what the screen shows")
        #expect(Set(own.argb).count > 2, "foot drew text")
        #expect(await session.stop().status == 0)
    }
}
