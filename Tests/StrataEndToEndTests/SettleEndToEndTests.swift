import Foundation
import Glibc
import Testing

/// `strata-ctl settle` with real clients: one that animates forever never settles and is named,
/// one that goes quiet after it started settles.
@Suite struct SettleEndToEndTests {
    @Test(.enabled(if: StrataRun.isInstalled("weston-simple-shm"), "weston-simple-shm is not installed (apt-get install weston)"))
    func westonSimpleShmAnimatesForeverAndSettleNamesIt() async throws {
        let ctl = try #require(ControlTests.ctl)
        let run = try StrataRun(["--size", "320x240"], command: ["weston-simple-shm"])
        #expect(await run.waitForVisibleWindows(1))
        let result = try await ProcessResult.run([ctl, "settle", "--timeout", "1"],
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
        let result = try await ProcessResult.run([ctl, "settle", "--frames", "3", "--timeout", "20"],
                                                 environment: ["XDG_RUNTIME_DIR": run.runtimeDirectory], directory: run.runtimeDirectory)
        #expect(result.status == 0, "\(result.ending)")
        #expect(result.stdout.contains("settled"), "\(result.stdout)")
        run.send(SIGTERM)
        await run.finish()
    }
}
