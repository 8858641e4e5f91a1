import StrataNestedBackends
import StrataServer

/// Records what a nested backend sends to the seat.
final class InputRecorder: NestedInput {
    enum Event: Equatable {
        case motion(screen: String, x: Double, y: Double)
        case button(UInt32, pressed: Bool)
        case axis(vertical: Double, horizontal: Double)
        case key(UInt32, pressed: Bool)
        case touchDown(Int32, screen: String, x: Double, y: Double)
        case touchMotion(Int32, x: Double, y: Double)
        case touchUp(Int32)
    }

    private(set) var events: [Event] = []

    func take() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    func pointerMotion(on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        events.append(.motion(screen: output.screen.name, x: x, y: y))
    }
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        events.append(.button(button, pressed: pressed))
    }
    func pointerAxis(vertical: Double, horizontal: Double, time: UInt32) {
        events.append(.axis(vertical: vertical, horizontal: horizontal))
    }
    func key(_ keycode: UInt32, pressed: Bool, time: UInt32) { events.append(.key(keycode, pressed: pressed)) }
    func touchDown(id: Int32, on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        events.append(.touchDown(id, screen: output.screen.name, x: x, y: y))
    }
    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) { events.append(.touchMotion(id, x: x, y: y)) }
    func touchUp(id: Int32, time: UInt32) { events.append(.touchUp(id)) }
    /// Keymaps the backend handed over (parent keymaps), not recorded as input events.
    var keymaps: [String] = []
    func useKeymap(text: String) -> Bool {
        keymaps.append(text)
        return true
    }
}
