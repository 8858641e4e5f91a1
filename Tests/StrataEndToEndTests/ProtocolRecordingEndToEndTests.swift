import Foundation
import Glibc
import Testing

/// `strata --record-protocol` end to end.
@Suite struct ProtocolRecordingEndToEndTests {
    @Test func recordProtocolWithoutRecordIsRefused() async throws {
        let result = try await StrataRun.run(["--record-protocol", "foot"], expecting: .failure)
        #expect(result.stderr.contains("record-protocol needs --record FILE"), "\(result.stderr)")
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("weston-simple-shm"),
            "weston-simple-shm is not installed (apt-get install weston)"))
    func westonSimpleShmChosenByItsAppIDHasItsCommitsAndFrameCallbacksInTheTrace() async throws {
        let trace = NSTemporaryDirectory() + "protocol-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).trace"
        defer { unlink(trace) }
        let run = try StrataRun(
            ["--size", "320x240", "--record", trace, "--record-protocol", "org.freedesktop.weston.simple-shm"],
            command: ["weston-simple-shm"])
        #expect(await run.waitForVisibleWindows(1))
        let seen = await StrataRun.poll(timeout: 30) { () -> Bool? in
            // `sync` writes out the trace being recorded.
            _ = try? ProcessResult.runBlocking(
                [ControlTests.ctl ?? "/nonexistent", "sync"],
                environment: ["XDG_RUNTIME_DIR": run.runtimeDirectory])
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            return text.contains("\"message\":\"done\"") && text.contains("\"message\":\"commit\"") ? true : nil
        }
        #expect(seen == true)
        run.send(SIGTERM)
        await run.finish()
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let lines = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["type"] as? String == "protocol" }
        #expect(
            lines.contains {
                $0["direction"] as? String == "request" && $0["interface"] as? String == "wl_surface"
                    && $0["message"] as? String == "commit"
            })
        #expect(
            lines.contains {
                $0["direction"] as? String == "event" && $0["interface"] as? String == "wl_callback"
                    && $0["message"] as? String == "done"
            })
        #expect(Set(lines.compactMap { $0["client"] as? Int }).count == 1, "one client chosen")
    }
}

extension ProcessResult {
    /// Runs `argv` to its end (a short strata-ctl request); its exit status.
    static func runBlocking(_ argv: [String], environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
