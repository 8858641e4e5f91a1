import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A real toolkit reacts to Strata's touchpad gestures: GTK 3's gestures demo draws its
/// rectangle, turned and scaled, while a pinch is in progress (and nothing before).
@Suite(.serialized) struct GestureClientTests {
    @Test(
        .enabled(
            if: TestProcess.isInstalled("gtk3-demo") && TestProcess.isInstalled("dbus-run-session"),
            "gtk3-demo (apt-get install gtk-3-examples) or dbus-run-session (dbus) is missing"))
    func gtk3GesturesDemoDrawsWhileAPinchIsInProgress() throws {
        let server = try TestServer()
        let output = try #require(server.compositor.scene.outputs.first)
        let env = ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"]
        let process = try TestProcess(
            ["dbus-run-session", "--", "gtk3-demo", "--run=gestures"], server: server, environment: env)
        func demo() -> Window? { server.windows.windows.first { $0.isVisible && $0.title == "Gestures" } }
        #expect(server.run(seconds: 20) { demo() != nil }, "no Gestures window; stderr: \(process.stderr)")
        server.run(seconds: 0.5)
        let frame = try #require(demo()?.frame)
        // The drawing area fills the window; the demo draws a blue-to-red rectangle only while a
        // zoom or rotate gesture is in progress.
        func bluePixels() -> Int {
            var count = 0
            for y in stride(from: frame.y, to: frame.maxY, by: 4) {
                for x in stride(from: frame.x, to: frame.maxX, by: 4) {
                    let p = server.pixel(x: Int32(x), y: Int32(y)) ?? 0
                    if p & 0xff > 0x80 && (p >> 8) & 0xff < 0x40 { count += 1 }
                }
            }
            return count
        }
        let seat: Seat = server.compositor.seat
        seat.pointerMotion(
            on: output, x: Double(frame.x + frame.width / 2), y: Double(frame.y + frame.height / 2), time: 10)
        server.run(seconds: 0.5)
        #expect(bluePixels() == 0, "the demo draws nothing before a gesture")
        seat.pointerGestureBegin(.pinch, fingers: 2, time: 20)
        seat.pointerGestureUpdate(dx: 0, dy: 0, scale: 1.8, rotation: 30, time: 30)
        #expect(
            server.run(seconds: 20) { bluePixels() > 100 },
            "GTK drew no rectangle for the pinch; stderr: \(process.stderr)")
        seat.pointerGestureEnd(cancelled: false, time: 40)
        server.run(seconds: 0.2)
    }
}
