import Foundation
import Testing

/// Debian's swayidle under Strata (ext_idle_notifier_v1): its timeout command runs when the seat
/// was idle for the timeout, and its resume command when input comes (here injected with
/// `strata-ctl input`).
@Suite struct IdleEndToEndTests {
    @Test(
        .enabled(
            if: StrataRun.isInstalled("swayidle") && StrataRun.sibling("strata-ctl") != nil,
            "swayidle is not installed (apt-get install swayidle) or strata-ctl is not built"))
    func swayidleRunsItsTimeoutAndResumeCommands() async throws {
        let run = try StrataRun(
            ["--size", "320x200"],
            command: [
                "swayidle", "-w", "timeout", "1", "touch \"$XDG_RUNTIME_DIR/idled\"", "resume",
                "touch \"$XDG_RUNTIME_DIR/resumed\"",
            ])
        _ = try #require(await run.socketName())
        let idled = await StrataRun.poll(timeout: 20) { run.runtimeFileExists("idled") ? true : nil }
        #expect(idled == true, "swayidle never ran its timeout command; stderr: \(run.stderr)")
        #expect(!run.runtimeFileExists("resumed"))
        if idled == true {
            #expect(try PrimarySelectionEndToEndTests.ctl(run, ["input", "pointer", "move", "10", "10"]).status == 0)
            let resumed = await StrataRun.poll(timeout: 20) { run.runtimeFileExists("resumed") ? true : nil }
            #expect(resumed == true, "swayidle never ran its resume command; stderr: \(run.stderr)")
        }
        run.send(SIGTERM)
        _ = await run.finish()
    }
}
