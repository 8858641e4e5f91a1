import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// `strata-ctl settle` with real clients: one that animates forever never settles and is named,
/// one that goes quiet after it started settles.
@Suite struct SettleEndToEndTests {
    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-simple-shm"),
            "weston-simple-shm is not installed (apt-get install weston)"))
    func westonSimpleShmAnimatesForeverAndSettleNamesIt() async throws {
        let ctl = try #require(ControlTests.ctl)
        let run = try StrataRun(["--size", "320x240"], command: ["weston-simple-shm"])
        #expect(await run.waitForVisibleWindows(1))
        // 30 frames (0.5 s) without a commit: a client starved of the CPU for two frames on a
        // loaded machine is not taken for one that stopped.
        let result = try await ProcessResult.run(
            [ctl, "settle", "--frames", "30", "--timeout", "2"],
            environment: ["XDG_RUNTIME_DIR": run.runtimeDirectory], directory: run.runtimeDirectory)
        #expect(result.status == 1, "\(result.ending)")
        #expect(result.stderr.contains("still changing"), "\(result.stderr)")
        #expect(result.stderr.contains("org.freedesktop.weston.simple-shm"), "\(result.stderr)")
        run.send(SIGTERM)
        await run.finish()
    }

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func footSettlesAfterItStarted() async throws {
        let ctl = try #require(ControlTests.ctl)
        let run = try StrataRun(["--size", "640x480"], command: ["foot", "sh", "-c", "sleep 600"])
        #expect(await run.waitForVisibleWindows(1))
        let result = try await ProcessResult.run(
            [ctl, "settle", "--frames", "3", "--timeout", "20"],
            environment: ["XDG_RUNTIME_DIR": run.runtimeDirectory], directory: run.runtimeDirectory)
        #expect(result.status == 0, "\(result.ending)")
        #expect(result.stdout.contains("settled"), "\(result.stdout)")
        run.send(SIGTERM)
        await run.finish()
    }

    /// Under the manual clock, `step --settle N` steps foot frame by frame, settling after each.
    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func stepSettleStepsFootUnderTheManualClock() async throws {
        let ctl = try #require(ControlTests.ctl)
        let run = try StrataRun(
            ["--size", "640x480", "--clock", "manual"], command: ["foot", "sh", "-c", "sleep 600"])
        let environment = ["XDG_RUNTIME_DIR": run.runtimeDirectory]
        // foot maps after its first frames: step until its window shows.
        let shown = await StrataRun.poll(timeout: 30) { () -> Bool? in
            _ = try? ProcessResult.runBlocking([ctl, "step"], environment: environment)
            return run.visibleWindowAppIDs()?.isEmpty == false ? true : nil
        }
        #expect(shown == true)
        let result = try await ProcessResult.run(
            [ctl, "step", "--settle", "5", "--timeout", "20"], environment: environment, directory: run.runtimeDirectory
        )
        #expect(result.status == 0, "\(result.ending)")
        #expect(result.stdout.contains("5 frames, settled after each"), "\(result.stdout)")
        run.send(SIGTERM)
        await run.finish()
    }

    /// An experiment settles foot, takes two screenshots and compares them: a settled picture
    /// does not change; a `compare` beyond the tolerance fails its line.
    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func anExperimentSettlesAndComparesScreenshots() async throws {
        let ctl = try #require(ControlTests.ctl)
        let run = try StrataRun(["--size", "1280x720"], command: ["foot", "sh", "-c", "sleep 600"])
        #expect(await run.waitForVisibleWindows(1))
        let folder = try ScratchFolder()
        let file = folder.path + "/settled.strata"
        try """
        wait-window foot
        settle --frames 3
        screenshot --output one.png
        settle
        screenshot --output two.png
        compare one.png two.png -o diff.png
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["XDG_RUNTIME_DIR": run.runtimeDirectory]
        let result = try await ProcessResult.run([ctl, "run", file], environment: environment, directory: folder.path)
        #expect(result.status == 0, "\(result.ending)")
        #expect(result.stdout.contains("match: 0 of 921600 pixels differ"), "\(result.stdout)")
        // The empty desktop against foot's picture: the compare line fails the experiment.
        let other = folder.path + "/other.strata"
        try "compare one.png \(folder.path)/empty.png\n".write(toFile: other, atomically: true, encoding: .utf8)
        try PNGFile.write(
            path: folder.path + "/empty.png",
            pixels: PNGFile.Pixels(width: 1280, height: 720, argb: [UInt32](repeating: 0xff00_0000, count: 1280 * 720)))
        let failing = try await ProcessResult.run(
            [ctl, "run", other], environment: environment, directory: folder.path)
        #expect(failing.status == 1, "\(failing.ending)")
        #expect(
            failing.stderr.contains("other.strata:1: compare: the pictures differ beyond the tolerance"),
            "\(failing.stderr)")
        // Masked by foot's frame from the running Strata's model: fewer pixels compared, fewer differ.
        let plain = try await ProcessResult.run(
            [ctl, "compare", "one.png", "empty.png", "--json"], environment: environment, directory: folder.path)
        let masked = try await ProcessResult.run(
            [ctl, "compare", "one.png", "empty.png", "--json", "--mask-window", "FOOT"],
            environment: environment, directory: folder.path)
        let number = { (text: String, key: String) -> Int? in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?[key] as? Int
        }
        let plainDiffering = try #require(number(plain.stdout, "differing"), "\(plain.ending)")
        let maskedDiffering = try #require(number(masked.stdout, "differing"), "\(masked.ending)")
        let maskedCompared = try #require(number(masked.stdout, "compared"))
        #expect(maskedDiffering < plainDiffering)
        #expect(maskedCompared < 1280 * 720 && maskedCompared > 0)
        let unknown = try await ProcessResult.run(
            [ctl, "compare", "one.png", "empty.png", "--mask-window", "title:nothing*"],
            environment: environment, directory: folder.path)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no shown window answers to"), "\(unknown.stderr)")
        run.send(SIGTERM)
        await run.finish()
    }
}
