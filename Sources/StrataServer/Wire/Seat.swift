import CStrataServerGlue
import CWaylandServer
import StrataModel

/// A popup grab (xdg_popup.grab): while it lasts, the seat sends pointer events only to the
/// grabbing client's surfaces, keyboard focus to the topmost grabbing popup, and dismisses the
/// grab when a button is pressed outside the client's surfaces.
public protocol PopupGrab: AnyObject {
    /// The client that owns the popup chain.
    var client: OpaquePointer { get }
    /// The topmost popup surface of the grab (keyboard focus goes there).
    var grabSurface: Surface? { get }
    /// The seat dismisses the grab (a click outside, or the grab was refused/broken).
    func grabDidEnd()
}

/// wl_seat (PLACEHOLDER until the seat lands: the API below is the contract the other wire
/// files use; the implementation replaces the bodies).
public final class Seat {
    unowned let compositor: Compositor

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        Global(display: compositor.display, interface: strata_wl_seat_interface(), version: 8) { client, version, id in
            // PLACEHOLDER (xdg branch): an inert wl_seat without capabilities, so that clients can
            // name the seat in xdg_popup.grab and xdg_toplevel.move/resize.
            guard let resource = wl_resource_create(client, strata_wl_seat_interface(), Int32(version), id) else {
                wl_client_post_no_memory(client)
                return
            }
            wl_resource_set_implementation(resource, Seat.placeholderImplementation, nil, nil)
            wl_seat_send_capabilities(resource, 0)
            if version >= 2 { wl_seat_send_name(resource, "seat0") }
        }
    }

    private static let placeholderImplementation = makeImplementation(wl_seat_interface(
        get_pointer: { _, _, _ in }, get_keyboard: { _, _, _ in }, get_touch: { _, _, _ in },
        release: destroyRequest))

    // MARK: Told by the compositor

    /// The model's key window changed: keyboard focus follows it (nil: no focus).
    func keyWindowDidChange(_ window: Window?) {}
    /// Stacking or visibility changed: the pointer focus under a still pointer is re-evaluated.
    func windowDidChange() {}
    /// A surface dies: drop every focus and grab reference to it.
    func surfaceWillDestroy(_ surface: Surface) {}
    /// A surface moved between screens: wl_surface.enter/leave for the client's wl_outputs.
    func surfaceDidChangeScreen(_ surface: Surface, from: ScreenOutput?, to: ScreenOutput?) {}

    // MARK: Asked by other wire objects

    /// Whether `serial` is one the seat sent to `client` for a button press, touch down or key
    /// press (xdg_popup.grab, xdg_toplevel.move/resize, show_window_menu check it).
    public func isValidInputSerial(_ serial: UInt32, client: OpaquePointer) -> Bool { false }
    /// Starts a popup grab; false when the serial is not valid (the caller then dismisses).
    public func beginPopupGrab(_ grab: PopupGrab, serial: UInt32) -> Bool { false }
    /// Ends a popup grab (popup destroyed or dismissed); focus returns where it belongs.
    public func endPopupGrab(_ grab: PopupGrab) {}
    /// Interactive move of a window by the pointer (xdg_toplevel.move); false if refused.
    public func beginInteractiveMove(_ window: Window, serial: UInt32, client: OpaquePointer) -> Bool { false }
    /// Interactive resize (xdg_toplevel.resize), edges as xdg_toplevel.resize_edge.
    public func beginInteractiveResize(_ window: Window, edges: UInt32, serial: UInt32, client: OpaquePointer,
                                       resize: @escaping (_ width: Int32, _ height: Int32) -> Void) -> Bool { false }

    // MARK: Input from backends, tests and the control socket (screen coordinates)

    public func pointerMotion(on output: ScreenOutput, x: Double, y: Double, time: UInt32) {}
    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {}
    public func pointerAxis(vertical: Double, horizontal: Double, time: UInt32) {}
    public func key(_ keycode: UInt32, pressed: Bool, time: UInt32) {}
    public func touchDown(id: Int32, on output: ScreenOutput, x: Double, y: Double, time: UInt32) {}
    public func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {}
    public func touchUp(id: Int32, time: UInt32) {}
}
