import Foundation
import StrataTestSupport
import Testing

/// `--screenshot DIR` with a FIFO where a screen's PNG goes: Strata says so and exits 1 before
/// its command runs (a FIFO written at the end would wait for a reader forever).
@Suite struct ScreenshotPathEndToEndTests {
    @Test func aFifoInTheScreenshotDirectoryIsRefusedAndStrataExitsWithAnError() async throws {
        let scratch = try ScratchFolder(prefix: "strata-shot-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        let fifo = dir + "/HEADLESS-1.png"
        try #require(mkfifo(fifo, 0o600) == 0)
        let marker = dir + "/ran"
        let result = try await StrataRun.run(
            ["--size", "320x200", "--screenshot", dir], command: ["touch", marker], expecting: .status(1))
        #expect(!result.timedOut)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains("strata: error: --screenshot \(dir): \(fifo) is a FIFO, not a regular file"),
            "stderr: \(result.stderr)")
        // Refused at the start: the command never ran.
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
