import Foundation
import StrataRender
import Testing

/// `strata --scale` with real client processes: screenshots have the mode's pixels, and what
/// a client draws for the scale is shown 1:1 (exact pixels).
@Suite struct ScaleEndToEndTests {
    static let background: UInt32 = 0xff20_2428
    static let colorClient = StrataRun.sibling("strata-color-client")

    /// Runs `command` under `strata --size 640x480 --scale S` until `ready` holds for the
    /// output, then stops Strata and returns the screenshot and the output.
    static func screenshot(scale: String, of command: [String], ready: @escaping (String) -> Bool) async throws
        -> (image: PNGFile.Pixels, output: String)
    {
        let run = try StrataRun(["--size", "640x480", "--scale", scale], command: command, screenshots: true)
        _ = try #require(await run.socketName())
        let seen = await StrataRun.poll(timeout: 15) { ready(run.stdout) ? true : nil }
        #expect(seen == true, "the client never got ready; stdout: \(run.stdout) stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let image = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        #expect(image.width == 640 && image.height == 480, "the screenshot has the mode's pixels")
        return (image, result.stdout)
    }

    /// Every pixel of the 640×480 screenshot: red in `window`, blue in `inner`, else background.
    static func expectWindow(
        _ image: PNGFile.Pixels, window: (Int, Int), inner: (x: Range<Int>, y: Range<Int>),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for y in 0..<480 {
            for x in 0..<640 {
                let inWindow = x < window.0 && y < window.1
                let expected: UInt32 =
                    inWindow && inner.x.contains(x) && inner.y.contains(y)
                    ? 0xff00_00ff
                    : inWindow ? 0xffff_0000 : background
                if image.at(x, y) != expected {
                    Issue.record(
                        "pixel (\(x), \(y)) is \(String(image.at(x, y), radix: 16)), expected \(String(expected, radix: 16))",
                        sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    @Test(
        .enabled(if: colorClient != nil, "strata-color-client is not built"),
        arguments: [["--buffer-scale", "2"], []])
    func aColorClientOnAScale2ScreenIsPixelExactWithBufferScale2OrDoubled(bufferScale: [String]) async throws {
        let client = try #require(Self.colorClient)
        let (image, _) = try await Self.screenshot(
            scale: "2",
            of: [
                client, "--size", "100x80", "--color", "ff0000", "--inner", "0000ff", "--frames", "3", "--seconds",
                "600",
            ] + bufferScale,
            ready: { $0.contains("frame 3") })
        // The 100×80 logical window is 200×160 pixels; its inner half is 50..<150 × 40..<120 either
        // way (drawn 1:1 from a 200×160 buffer, or each pixel of a 100×80 buffer doubled).
        Self.expectWindow(image, window: (200, 160), inner: (50..<150, 40..<120))
    }

    @Test(.enabled(if: colorClient != nil, "strata-color-client is not built"))
    func aFractionalScaleClientIsPixelExactOnAScale1_5Screen() async throws {
        let client = try #require(Self.colorClient)
        let (image, output) = try await Self.screenshot(
            scale: "1.5",
            of: [
                client, "--size", "100x80", "--color", "ff0000", "--inner", "0000ff", "--frames", "3", "--seconds",
                "600", "--fractional",
            ],
            ready: { $0.contains("frame 3") })
        #expect(output.contains("preferred_scale 180"))
        // A 150×120 buffer behind a 100×80 viewport: 150×120 pixels, the inner part 37..<113 × 30..<90.
        Self.expectWindow(image, window: (150, 120), inner: (37..<113, 30..<90))
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-simple-shm"),
            "weston-simple-shm is not installed (apt-get install weston)"))
    func westonSimpleShmIsDoubledOnAScale2Screen() async throws {
        let run = try StrataRun(
            ["--size", "640x480", "--scale", "2"], command: ["weston-simple-shm"], screenshots: true)
        _ = try #require(await run.socketName())
        // Debian's demo clients say nothing when they are up: wait until the screen shows its
        // window drawn (what is checked below).
        let drawn = await run.waitForScreen { image in
            var inside = 0
            for y in 0..<480 { for x in 0..<500 where image.at(x, y) != Self.background { inside += 1 } }
            return inside > 500 * 480 / 2
        }
        #expect(drawn, "weston-simple-shm never drew its window; stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        let image = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        #expect(image.width == 640 && image.height == 480)
        // Its 250×250 window (buffer scale 1) is 500×500 pixels: drawn up to x = 500, nothing beyond.
        var inside = 0, beyond = 0
        for y in 0..<480 {
            for x in 0..<640 where image.at(x, y) != Self.background {
                if x < 500 { inside += 1 } else { beyond += 1 }
            }
        }
        #expect(inside > 500 * 480 / 2)
        #expect(beyond == 0)
        // Doubled: every pixel equals its neighbour in the same 2×2 block.
        var unlike = 0
        for y in stride(from: 0, to: 480, by: 2) {
            for x in stride(from: 0, to: 500, by: 2) where image.at(x, y) != image.at(x + 1, y + 1) { unlike += 1 }
        }
        #expect(unlike == 0)
    }

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func footDrawsAtBufferScale2OnAScale2Screen() async throws {
        let run = try StrataRun(
            ["--size", "640x480", "--scale", "2"],
            command: [
                "foot", "-o", "colors.background=336699", "-o", "colors.foreground=ffffff",
                "sh", "-c", "printf 'Strata at scale 2: WWWW MMMM gggg'; sleep 600",
            ], screenshots: true)
        _ = try #require(await run.socketName())
        // Shown (its first buffer on screen), then until the text is drawn (white glyph pixels
        // on the terminal's background).
        #expect(await run.waitForVisibleWindows(1), "foot never showed a window; stderr: \(run.stderr)")
        let texted = await run.waitForScreen { Self.footBlocks($0).detailed > 20 }
        #expect(texted, "foot never drew its text; stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        let image = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        #expect(image.width == 640 && image.height == 480)
        let (terminal, detailed) = Self.footBlocks(image)
        #expect(terminal > 1000, "foot's background colour fills its window")
        #expect(detailed > 20, "text drawn at the screen's pixels, not doubled")
    }

    /// foot follows wl_output.scale 2 with buffer scale 2: its glyphs have single-pixel detail.
    /// A buffer-scale-1 terminal would be doubled (every aligned 2×2 block one colour). Counts the
    /// aligned 2×2 blocks with foot's background colour, and those with detail inside the window.
    static func footBlocks(_ image: PNGFile.Pixels) -> (terminal: Int, detailed: Int) {
        var terminal = 0, detailed = 0
        for y in stride(from: 0, to: image.height - 1, by: 2) {
            for x in stride(from: 0, to: image.width - 1, by: 2) {
                let block = [image.at(x, y), image.at(x + 1, y), image.at(x, y + 1), image.at(x + 1, y + 1)]
                if block.contains(0xff33_6699) { terminal += 1 }
                if Set(block).count > 1, !block.contains(Self.background) { detailed += 1 }
            }
        }
        return (terminal, detailed)
    }

    @Test(.enabled(if: ControlTests.ctl != nil, "strata-ctl is not built"))
    func strataCtlSetsAFractionalScale() async throws {
        let session = try await ControlTests.Session.start()
        try await session.ctl("screen", "scale", "HEADLESS-1", "1.5")
        let json = try await session.ctl("screens", "--json").stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let screen = try #require((object?["screens"] as? [[String: Any]])?.first)
        #expect(screen["scale"] as? Double == 1.5)
        let bounds = try #require(screen["bounds"] as? [String: Any])
        #expect(bounds["width"] as? Int == 427 && bounds["height"] as? Int == 320)
        #expect(try await session.ctl("screens").stdout.contains("1.5"))
        #expect(try await session.ctl("screen", "scale", "HEADLESS-1", "0.5", expectStatus: nil).status != 0)
        let shot = session.run.root + "/shot.png"
        try await session.ctl("screenshot", "-o", shot)
        let image = try PNGFile.read(path: shot)
        #expect(image.width == 640 && image.height == 480)
        #expect(await session.stop().status == 0)
    }
}
