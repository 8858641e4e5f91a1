import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwp_input_popup_surface_v2: an input method's candidate list, shown next to the text cursor.
///
/// The surface gets the role "zwp_input_popup_surface_v2". It is shown as a model window that
/// cannot become key, one level above the window of the active text input, with its origin at
/// the bottom-left corner of the text input's cursor rectangle, while its input method is active
/// and it has content; `text_input_rectangle` tells it where the cursor rectangle is, in the
/// popup's coordinates. It follows the text input when either commits. Hidden otherwise; the
/// window closes when the popup object, its surface or its input method dies.
final class InputPopupSurface: ResourceObject, SurfaceRole, WindowContent {
    static let roleName = "zwp_input_popup_surface_v2"
    var roleName: String { Self.roleName }

    private weak var inputMethod: InputMethod?
    private(set) weak var surface: Surface?
    private unowned let compositor: Compositor
    private(set) var window: Window?
    private var surfaceDestroyed: Signal<Surface>.Token?
    private var sentRectangle: Rect?

    init?(inputMethod: InputMethod, surface: Surface, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.inputMethod = inputMethod
        self.surface = surface
        self.compositor = inputMethod.relay.seat.compositor
        super.init(
            client: client, interface: strata_zwp_input_popup_surface_v2_interface(), version: version, id: id,
            implementation: Self.implementation)
        _ = surface.setRole(self)
        surfaceDestroyed = surface.didDestroy.observe { [weak self] _ in self?.tearDown() }
    }

    override func resourceDidDestroy() {
        tearDown()
    }

    /// The input method died or became unavailable: hidden for good.
    func inputMethodDidEnd() {
        inputMethod = nil
        hide()
    }

    // MARK: WindowContent, SurfaceRole

    var rootSurface: Surface? { surface }

    func surfaceDidCommit(_ surface: Surface) {
        update()
    }

    // MARK: Placement

    /// Shows the popup under the active text input's cursor rectangle, or hides it.
    func update() {
        guard !isDestroyed, let surface, !surface.isDestroyed, surface.hasContent,
            let inputMethod, inputMethod.isAvailable, inputMethod.isActive,
            let textInput = inputMethod.relay.activeTextInput, let anchor = textInput.focusedSurface,
            let anchorPlacement = anchor.placement,
            let screen = compositor.windows.screen(withID: anchorPlacement.screen)
        else {
            hide()
            return
        }
        let cursor = textInput.current.cursorRectangle ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let x = Int(anchorPlacement.x) + cursor.x
        let y = Int(anchorPlacement.y) + cursor.y + cursor.height
        let level = WindowLevel(rawValue: (compositor.scene.window(showing: anchor)?.level.rawValue ?? 0) + 1)
        let window = self.window ?? makeWindow(level: level, screen: screen)
        if window.level != level { compositor.windows.setLevel(window, level) }
        if window.screen !== screen { compositor.windows.move(window, to: screen) }
        compositor.windows.setFrame(window, Rect(x: x, y: y, width: Int(surface.width), height: Int(surface.height)))
        if window.isHidden {
            compositor.withMapCause(window, request: "zwp_input_popup_surface_v2 map") {
                compositor.windows.show(window, makeKey: false)
            }
        }
        // The cursor rectangle as the popup sees it: just above its origin.
        let rectangle = Rect(x: 0, y: -cursor.height, width: cursor.width, height: cursor.height)
        if rectangle != sentRectangle {
            sentRectangle = rectangle
            zwp_input_popup_surface_v2_send_text_input_rectangle(
                resource, Int32(clamping: rectangle.x), Int32(clamping: rectangle.y),
                Int32(clamping: rectangle.width), Int32(clamping: rectangle.height))
        }
    }

    private func makeWindow(level: WindowLevel, screen: Screen) -> Window {
        let window = compositor.windows.createWindow(
            title: "input method popup", pid: clientPid, level: level,
            canBecomeKey: false, screen: screen)
        window.content = self
        self.window = window
        // Shown where and while the window is.
        if let surface { compositor.scene.setAnchor(.window(window, x: 0, y: 0), of: surface) }
        return window
    }

    private func hide() {
        if let window, !window.isClosed, !window.isHidden { compositor.windows.hide(window) }
    }

    private func tearDown() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        if let surface { surface.clearRole(self) }
        if let window, !window.isClosed { compositor.windowDidClose(window) }
        window = nil
    }

    static let implementation = makeImplementation(zwp_input_popup_surface_v2_interface(destroy: destroyRequest))
}
