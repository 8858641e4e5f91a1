import Foundation
import StrataModel
import StrataNestedBackends
import StrataRender
import StrataServer
import Testing

/// The whole chain: a real client (the built strata-color-client) maps a window in a nested
/// Strata whose screen is a window of Debian's Weston; Weston's screenshot shows the client.
@Suite(
    .serialized, .timeLimit(.minutes(1)),
    .enabled(if: ParentWeston.isInstalled, Comment(rawValue: ParentWeston.missingMessage)),
    .enabled(if: colorClientPath != nil, "strata-color-client is not built"))
struct ClientInNestedStrataTests {}

/// strata-color-client next to the test bundle in the build folder.
let colorClientPath: String? = {
    guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
    let path = (exe as NSString).deletingLastPathComponent + "/strata-color-client"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}()

extension ClientInNestedStrataTests {
    @Test func aClientsWindowInsideNestedStrataAppearsInTheParent() throws {
        let weston = try ParentWeston()
        let backend = try WaylandBackend(displayName: weston.socketPath, modes: [ScreenMode(width: 320, height: 200)])
        let compositor = try Compositor(backend: backend)
        defer { compositor.shutdown() }
        compositor.scene.backgroundARGB = 0xff3c_b371
        // The client reaches the nested Strata through an inherited socket (WAYLAND_SOCKET).
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        #expect(compositor.display.createClient(fd: fds[0]) != nil)
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = nil
        environment["WAYLAND_SOCKET"] = String(fds[1])
        let client = try ChildProcess(
            try #require(colorClientPath),
            [
                "--size", "100x80", "--color", "ffc83232", "--seconds", "20",
                "--title", "inside",
            ], environment: environment,
            inheriting: [fds[1]])
        close(fds[1])
        defer { client.stop() }
        #expect(step(compositor) { compositor.windows.windows.contains { $0.title == "inside" && !$0.isHidden } })
        let output = try #require(compositor.scene.outputs.first)
        #expect(
            step(compositor) {
                let frame = compositor.windows.windows.first { $0.title == "inside" }?.frame
                return frame.map { output.canvas.pixel(x: Int32($0.x + 50), y: Int32($0.y + 40)) == 0xffc8_3232 }
                    ?? false
            })
        let shot = try #require(
            try settled(compositor, read: weston.screenshot) {
                $0.argb.filter { $0 | 0xff00_0000 == 0xffc8_3232 }.count == 100 * 80
                    && $0.argb.filter { $0 | 0xff00_0000 == 0xff3c_b371 }.count == 320 * 200 - 100 * 80
            })
        #expect(
            shot.argb.filter { $0 | 0xff00_0000 == 0xffc8_3232 }.count == 100 * 80,
            "the client's window, through both compositors")
        #expect(shot.argb.filter { $0 | 0xff00_0000 == 0xff3c_b371 }.count == 320 * 200 - 100 * 80)
    }
}
