import Foundation
import Glibc
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Debian's swaylock under Strata (ext_session_lock_v1): it locks every screen, its colour is all
/// that is drawn, keys no longer reach the window that was key, and killing it leaves the screens
/// locked and black. (Unlocking needs a PAM password: `SessionLockTests` unlocks in process.)
@Suite(.serialized) struct SessionLockEndToEndTests {
    /// swaylock's `-c 336699`.
    static let colour: UInt32 = 0xff33_6699

    @Test(
        .enabled(
            if: TestProcess.isInstalled("swaylock") && TestProcess.isInstalled("weston-eventdemo")
                && TestProcess.isInstalled("stdbuf"),
            "swaylock (apt-get install swaylock), weston-eventdemo (weston) or stdbuf (coreutils) is missing"))
    func swaylockCoversEveryScreenTakesTheKeysAndLeavesTheScreensBlackWhenKilled() throws {
        let server = try TestServer(screens: 2, width: 320, height: 200)
        let app = try TestProcess(["stdbuf", "-oL", "weston-eventdemo", "--log-key"], server: server)
        defer { app.kill() }
        #expect(
            server.run(seconds: 20) { server.windows.windows.contains { $0.isVisible && $0.isKeyWindow } },
            "no window; stderr: \(app.stderr)")
        let window = try #require(server.windows.windows.first { $0.isVisible })
        let centre = (
            x: Int32(window.frame.x + window.frame.width / 2), y: Int32(window.frame.y + window.frame.height / 2)
        )
        #expect(server.pixel(x: centre.x, y: centre.y) != Self.colour)
        // Before the lock, the window gets keys (B): the log below is not empty by accident.
        server.compositor.seat.key(48, pressed: true, time: 10)
        server.compositor.seat.key(48, pressed: false, time: 11)
        #expect(
            server.run(seconds: 20) { app.stdout.contains("key key: 48") }, "eventdemo logged no key: \(app.stdout)")

        let locker = try TestProcess(["swaylock", "-c", "336699"], server: server)
        defer { locker.kill() }
        let covered = server.run(seconds: 20) {
            server.pixel(x: 0, y: 0) == Self.colour && server.pixel(x: 319, y: 199) == Self.colour
                && server.pixel(x: 0, y: 0, screen: 1) == Self.colour
                && server.pixel(x: 319, y: 199, screen: 1) == Self.colour
        }
        #expect(covered, "swaylock's colour is not on both screens; stderr: \(locker.stderr)")
        #expect(server.windows.isLocked)
        #expect(server.windows.keyWindow == nil)
        #expect(server.pixel(x: centre.x, y: centre.y) == Self.colour, "the window is not drawn")
        #expect(server.compositor.seat.keyboardFocus?.roleName == "ext_session_lock_surface_v1")

        // A key typed now goes to swaylock (its password buffer), not to the window.
        server.compositor.seat.key(30, pressed: true, time: 100)
        server.compositor.seat.key(30, pressed: false, time: 101)
        server.compositor.seat.key(28, pressed: true, time: 102)  // Return: swaylock checks "a" (and fails)
        server.compositor.seat.key(28, pressed: false, time: 103)
        server.run(seconds: 0.3)
        #expect(!app.stdout.contains("key key: 30"), "the window got the key: \(app.stdout)")

        locker.kill()
        let blank = server.run(seconds: 20) {
            server.pixel(x: centre.x, y: centre.y) == 0xff00_0000 && server.pixel(x: 0, y: 0, screen: 1) == 0xff00_0000
        }
        #expect(blank, "the screens are not black after swaylock died")
        #expect(server.windows.isLocked)
        server.compositor.seat.key(30, pressed: true, time: 200)
        server.compositor.seat.key(30, pressed: false, time: 201)
        server.run(seconds: 0.3)
        #expect(!app.stdout.contains("key key: 30"), "the window got a key while locked: \(app.stdout)")
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("swaylock") && ControlTests.ready,
            "swaylock is not installed (apt-get install swaylock) or strata-ctl/strata-color-client is not built"))
    func swaylockStartedFromStrataCtlLocksAndItsDeathLeavesTheScreenBlack() async throws {
        let session = try await ControlTests.Session.start(["--size", "320x200"])
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.locked", "--size", "100x80", "--color", "ff0000",
            "--seconds", "600")
        _ = try await session.waitForWindow("e2e.locked")
        let pidText = try await session.ctl("exec", "--", "swaylock", "-c", "336699").stdout
        let pid = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let locked = await session.run.waitForScreen(timeout: 20) { pixels in
            pixels.argb.allSatisfy { $0 == Self.colour }
        }
        #expect(locked, "the screen is not all swaylock's colour")
        // Keys injected through the control socket reach no window: nothing is key. (No pointer
        // input: the cursor would be drawn over the colour.)
        try await session.ctl("input", "type", "abc")
        #expect(try await session.windows().allSatisfy { $0["key"] as? Bool == false })
        let events = try await session.ctl("events", "--since", "0", "--no-follow", "--json").stdout
        #expect(events.contains("\"sessionDidLock\""), "\(events)")

        kill(pid, SIGKILL)
        let blank = await session.run.waitForScreen(timeout: 20) { pixels in
            pixels.argb.allSatisfy { $0 | 0xff00_0000 == 0xff00_0000 }
        }
        #expect(blank, "the screen is not black after swaylock died")
        #expect(try await session.windows().allSatisfy { $0["key"] as? Bool == false })
        #expect(await session.stop().status == 0)
    }
}
