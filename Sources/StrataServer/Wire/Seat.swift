import CStrataServerGlue
import CWaylandServer
import StrataModel

/// wl_seat (placeholder until the seat lands).
public final class Seat {
    unowned let compositor: Compositor

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        Global(display: compositor.display, interface: strata_wl_seat_interface(), version: 8) { _, _, _ in }
    }

    func keyWindowDidChange(_ window: Window?) {}
    func windowDidChange() {}
    func surfaceWillDestroy(_ surface: Surface) {}
    func surfaceDidChangeScreen(_ surface: Surface, from: ScreenOutput?, to: ScreenOutput?) {}
}
