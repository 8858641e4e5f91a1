import Foundation
import StrataRender
import Testing

/// Real clients drawing into Strata's headless screen, checked in the screenshot Strata writes
/// when it is stopped (SIGTERM) while the client still shows its window.
@Suite struct RealClientTests {
    static let background: UInt32 = 0xff20_2428

    /// Runs `command` under Strata on one 640×480 screen until `ready` holds for Strata's (and the
    /// client's) standard output, or `seconds` pass; then stops Strata and returns the screenshot.
    static func screenshot(
        of command: [String], ready: ((String) -> Bool)? = nil,
        drawn: @escaping (PNGFile.Pixels) -> Bool = { _ in true }
    ) async throws
        -> (image: PNGFile.Pixels, output: String)
    {
        let run = try StrataRun(["--size", "640x480"], command: command, screenshots: true)
        _ = try #require(await run.socketName())
        if let ready {
            let seen = await StrataRun.poll(timeout: 60) { ready(run.stdout) ? true : nil }
            #expect(seen == true, "the client never got ready; stdout: \(run.stdout) stderr: \(run.stderr)")
        } else {
            // Debian's demo clients say nothing when they are up: wait until the window shows
            // (its first buffer is on screen), then until the screen shows what `drawn` looks for.
            let shown = await run.waitForVisibleWindows(1)
            #expect(shown, "the client never showed a window; stdout: \(run.stdout) stderr: \(run.stderr)")
        }
        let painted = await run.waitForScreen(until: drawn)
        #expect(painted, "the screen never showed what the test looks for; stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let image = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        #expect(image.width == 640 && image.height == 480)
        return (image, result.stdout)
    }

    /// Pixels in the rectangle that differ from the background.
    static func drawnPixels(_ image: PNGFile.Pixels, x: Range<Int>, y: Range<Int>) -> Int {
        var count = 0
        for row in y { for col in x where image.at(col, row) != background { count += 1 } }
        return count
    }

    @Test func colorClientPixelsAreExactlyWhereItsWindowIsPlaced() async throws {
        let client = try #require(StrataRun.sibling("strata-color-client"))
        let (image, output) = try await Self.screenshot(
            of: [
                client, "--size", "100x80", "--color", "ff0000", "--inner", "0000ff", "--frames", "3", "--seconds",
                "600",
            ],
            ready: { $0.contains("frame 3") })
        #expect(output.contains("activated=true"), "the only window is the key window")
        var red = 0, blue = 0, other = 0
        for y in 0..<480 {
            for x in 0..<640 {
                let pixel = image.at(x, y)
                let inWindow = x < 100 && y < 80
                let inInner = x >= 25 && x < 75 && y >= 20 && y < 60
                let expected: UInt32 = inInner ? 0xff00_00ff : inWindow ? 0xffff_0000 : Self.background
                if pixel == 0xffff_0000 { red += 1 } else if pixel == 0xff00_00ff { blue += 1 } else { other += 1 }
                if pixel != expected {
                    Issue.record(
                        "pixel (\(x), \(y)) is \(String(pixel, radix: 16)), expected \(String(expected, radix: 16))")
                    return
                }
            }
        }
        #expect(red == 100 * 80 - 50 * 40 && blue == 50 * 40)
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-simple-shm"),
            "weston-simple-shm is not installed (apt-get install weston)"))
    func westonSimpleShmDrawsItsWindow() async throws {
        let (image, _) = try await Self.screenshot(
            of: ["weston-simple-shm"],
            drawn: {
                Self.drawnPixels($0, x: 0..<250, y: 0..<250) > 250 * 250 / 2
            })
        // A 250×250 window at the cascade origin, with a coloured pattern inside.
        #expect(Self.drawnPixels(image, x: 0..<250, y: 0..<250) > 250 * 250 / 2)
        #expect(Self.drawnPixels(image, x: 260..<640, y: 0..<480) == 0)
        #expect(Self.drawnPixels(image, x: 0..<640, y: 260..<480) == 0)
    }

    @Test(
        .enabled(if: StrataRun.isInstalled("weston-flower"), "weston-flower is not installed (apt-get install weston)"))
    func westonFlowerDrawsAFlower() async throws {
        let (image, _) = try await Self.screenshot(
            of: ["weston-flower"], drawn: { Self.drawnPixels($0, x: 0..<200, y: 0..<200) > 1000 })
        // The flower's size and petals are random: some of its window is drawn, nothing far away.
        #expect(Self.drawnPixels(image, x: 0..<200, y: 0..<200) > 1000)
        #expect(Self.drawnPixels(image, x: 300..<640, y: 300..<480) == 0)
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-subsurfaces"),
            "weston-subsurfaces is not installed (apt-get install weston)"))
    func westonSubsurfacesDrawsItsSubsurfaces() async throws {
        // The main surface is green; the red subsurface is at its right.
        func greenAndRed(_ image: PNGFile.Pixels) -> (green: Int, red: Int) {
            var green = 0, red = 0
            for y in 0..<200 {
                for x in 0..<400 {
                    let p = image.at(x, y)
                    let r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff
                    if g > 0x80 && r < 0x40 && b < 0x40 { green += 1 }
                    if r > 0x80 && g < 0x40 && b < 0x40 { red += 1 }
                }
            }
            return (green, red)
        }
        let (image, _) = try await Self.screenshot(
            of: ["weston-subsurfaces"], drawn: { greenAndRed($0).green > 5000 && greenAndRed($0).red > 1000 })
        let (green, red) = greenAndRed(image)
        #expect(green > 5000, "the main surface")
        #expect(red > 1000, "the red subsurface")
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-simple-damage"),
            "weston-simple-damage is not installed (apt-get install weston)"))
    func westonSimpleDamageDrawsItsWindow() async throws {
        let (image, _) = try await Self.screenshot(
            of: ["weston-simple-damage"],
            drawn: {
                Self.drawnPixels($0, x: 0..<300, y: 0..<200) > 10000
            })
        #expect(Self.drawnPixels(image, x: 0..<300, y: 0..<200) > 10000)
    }

    @Test(
        .enabled(if: StrataRun.isInstalled("weston-scaler"), "weston-scaler is not installed (apt-get install weston)"))
    func westonScalerDrawsThroughAViewport() async throws {
        // weston-scaler exits at once without wp_viewporter; with it, its cropped and scaled
        // buffer fills a window near the cascade origin.
        let (image, _) = try await Self.screenshot(
            of: ["weston-scaler"], drawn: { Self.drawnPixels($0, x: 0..<300, y: 0..<300) > 20000 })
        #expect(Self.drawnPixels(image, x: 0..<300, y: 0..<300) > 20000)
        #expect(Self.drawnPixels(image, x: 400..<640, y: 350..<480) == 0)
    }

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func footShowsATerminal() async throws {
        let (image, _) = try await Self.screenshot(
            of: ["foot", "-o", "colors.background=336699", "sh", "-c", "sleep 600"],
            drawn: {
                Self.terminalSamples($0) > 1000
            })
        #expect(Self.terminalSamples(image) > 1000, "foot's background colour fills its window")
    }

    /// Samples (every 4th pixel each way) in foot's background colour.
    static func terminalSamples(_ image: PNGFile.Pixels) -> Int {
        var terminal = 0
        for y in stride(from: 0, to: image.height, by: 4) {
            for x in stride(from: 0, to: image.width, by: 4) where image.at(x, y) == 0xff33_6699 { terminal += 1 }
        }
        return terminal
    }

    /// Two strata-color-clients under `strata`: the first asks for the alert level through
    /// strata_window_v1, the second (newer, normal) overlaps it; `allowed` puts the first app id on
    /// --allow-levels.
    static func alertAndNormal(allowed: Bool) async throws -> (image: PNGFile.Pixels, output: String) {
        let client = try #require(StrataRun.sibling("strata-color-client"))
        let script =
            "\"$0\" --app-id org.example.Alert --level alert --size 200x150 --color ff0000 --frames 2 --seconds 600 & "
            + "echo 'wait-window org.example.Alert 30' | \"$1\" run - >/dev/null; \"$0\" --app-id org.example.Normal --size 200x150 --color 00ff00 --frames 2 --seconds 600"
        var arguments = ["--size", "640x480"]
        if allowed { arguments += ["--allow-levels", "org.example.Alert"] }
        let run = try StrataRun(
            arguments, command: ["sh", "-c", script, client, try #require(StrataRun.sibling("strata-ctl"))],
            screenshots: true)
        _ = try #require(await run.socketName())
        let seen = await StrataRun.poll(timeout: 60) {
            run.stdout.components(separatedBy: "frame 2").count == 3 ? true : nil
        }
        #expect(seen == true, "stdout: \(run.stdout) stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        let image = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        return (image, result.stdout)
    }

    /// Every pixel of the screenshot by colour, and the bounding box of each colour.
    static func colourCensus(_ image: PNGFile.Pixels) -> [UInt32: (
        count: Int, box: (x: ClosedRange<Int>, y: ClosedRange<Int>)
    )] {
        var census: [UInt32: (count: Int, minX: Int, minY: Int, maxX: Int, maxY: Int)] = [:]
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.at(x, y)
                let c = census[p] ?? (0, x, y, x, y)
                census[p] = (c.count + 1, min(c.minX, x), min(c.minY, y), max(c.maxX, x), max(c.maxY, y))
            }
        }
        return census.mapValues { ($0.count, ($0.minX...$0.maxX, $0.minY...$0.maxY)) }
    }

    /// The two 200×150 windows: the older (red, asked for alert) at the cascade origin (0, 0), the
    /// newer (green) cascaded to (32, 32); they overlap in 168×118 pixels. `front` is the colour
    /// that shows there. Every pixel of the screen is checked.
    static func expectOverlap(
        _ image: PNGFile.Pixels, front: UInt32, back: UInt32,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let red: UInt32 = 0xffff_0000, green: UInt32 = 0xff00_ff00
        let census = colourCensus(image)
        let whole = 200 * 150, overlap = 168 * 118
        #expect(census[front]?.count == whole, "the window in front shows whole", sourceLocation: sourceLocation)
        #expect(
            census[back]?.count == whole - overlap, "the window behind shows outside the overlap",
            sourceLocation: sourceLocation)
        #expect(
            census[background]?.count == image.width * image.height - (2 * whole - overlap),
            sourceLocation: sourceLocation)
        #expect(
            census.count == 3, "other colours: \(census.keys.filter { ![red, green, background].contains($0) })",
            sourceLocation: sourceLocation)
        #expect(
            census[red].map { $0.box.x == 0...199 && $0.box.y == 0...149 } == true, "the red window at (0, 0)",
            sourceLocation: sourceLocation)
        #expect(
            census[green].map { $0.box.x == 32...231 && $0.box.y == 32...181 } == true, "the green window at (32, 32)",
            sourceLocation: sourceLocation)
    }

    @Test func colorClientAtAlertLevelStaysAboveANewerNormalWindow() async throws {
        let (image, output) = try await Self.alertAndNormal(allowed: true)
        #expect(output.contains("level_changed 1000"))
        // Where both overlap, the alert window shows.
        Self.expectOverlap(image, front: 0xffff_0000, back: 0xff00_ff00)
        #expect(output.contains("did_resign_key"), "the newer window took key, without changing the stacking")
    }

    @Test func aLevelRequestFromAnAppNotAllowedIsDeniedAndTheNewerWindowIsInFront() async throws {
        let (image, output) = try await Self.alertAndNormal(allowed: false)
        #expect(output.contains("level_denied 1000 reason 0"))
        Self.expectOverlap(image, front: 0xff00_ff00, back: 0xffff_0000)
    }
}
