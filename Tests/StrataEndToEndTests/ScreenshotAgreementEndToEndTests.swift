import Foundation
import StrataRender
import Testing

/// Every capture path shows what the screen shows: `strata-ctl screenshot`, grim (wlr-screencopy,
/// turned upright by the output's transform) and `strata --screenshot` give the same pixels on a
/// dimmed, turned, overscanned screen; `screenshot --raw` gives the composed canvas.
@Suite struct ScreenshotAgreementEndToEndTests {
    @Test(.enabled(if: StrataRun.isInstalled("grim"), "grim is not installed (apt-get install grim)"))
    func controlScreenshotGrimAndExitScreenshotAgreeAfterBrightnessTransformAndOverscan() async throws {
        let client = try #require(StrataRun.sibling("strata-color-client"))
        let directory = NSTemporaryDirectory() + "strata-agree-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script =
            "\(client) --size 100x80 --color ff0000 --inner 0000ff --frames 3 --seconds 600 & "
            + "echo 'wait-window org.strata.ColorClient 30' | \"$0\" run - >/dev/null && "
            + "\"$0\" screen brightness HEADLESS-1 0.5 >/dev/null && \"$0\" screen transform HEADLESS-1 90 >/dev/null && "
            + "\"$0\" screen overscan HEADLESS-1 scale --percent 10 >/dev/null && "
            + "\"$0\" screenshot -o \(directory)/ctl.png >/dev/null && \"$0\" screenshot --raw -o \(directory)/raw.png >/dev/null && "
            + "grim \(directory)/grim.png && echo shots-done || echo shots-failed"
        let run = try StrataRun(
            ["--size", "320x200"], command: ["/bin/sh", "-c", script, try #require(StrataRun.sibling("strata-ctl"))],
            screenshots: true)
        _ = try #require(await run.socketName())
        let finished = await StrataRun.poll(timeout: 30) { run.stdout.contains("shots-") ? true : nil }
        #expect(finished == true && run.stdout.contains("shots-done"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        let exit = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        let control = try PNGFile.read(path: directory + "/ctl.png")
        let grim = try PNGFile.read(path: directory + "/grim.png")
        let raw = try PNGFile.read(path: directory + "/raw.png")
        // Upright: the 320×200 mode turned by 90° is 200×320.
        #expect(control.width == 200 && control.height == 320)
        #expect(control == grim, "strata-ctl screenshot differs from grim's capture")
        #expect(control == exit, "strata-ctl screenshot differs from strata --screenshot")
        // Shown: the border is black, the window dimmed to half and shrunk by 10 % (its red at
        // logical (5, 5) shows at 10 + 4.5, 16 + 4.5).
        #expect(control.at(2, 2) == 0xff00_0000)
        #expect(control.at(15, 21) == 0xff7f_0000)
        // Raw: the composed canvas, full brightness, no border.
        #expect(raw.width == 200 && raw.height == 320)
        #expect(raw.at(2, 2) == 0xffff_0000)
    }
}
