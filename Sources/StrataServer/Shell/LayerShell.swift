import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_layer_shell_v1 (v4): desktop layers (wallpapers, panels, docks, notifications, lock
/// screens) as model windows at fixed levels, anchored to a screen's edges.
///
/// | layer        | level                        |
/// |--------------|------------------------------|
/// | `background` | `WindowLevel.background` (-2000) |
/// | `bottom`     | `WindowLevel.bottom` (-1000) |
/// | `top`        | `WindowLevel.statusBar` (2000) |
/// | `overlay`    | `LayerShell.overlayLevel` (3000) |
///
/// The shell arranges each screen's layer surfaces (`arrange(screen:)`): surfaces with an
/// exclusive zone first (overlay, top, bottom, background; older first inside a layer), each
/// placed inside what the previous ones left and shrinking it; then the others (zone 0 inside the
/// area left, zone -1 on the whole screen). What is left becomes the screen's usable area
/// (`WindowManager.setUsableArea`), where toplevels are placed and maximized.
public final class LayerShell {
    static let version: UInt32 = 4
    /// The level of the `overlay` layer: above the status bar.
    public static let overlayLevel = WindowLevel(rawValue: 3000)

    unowned let compositor: Compositor
    /// Live layer surfaces, oldest first.
    var surfaces: [LayerSurface] = []

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        Global(display: compositor.display, interface: strata_zwlr_layer_shell_v1_interface(), version: Self.version) {
            [unowned self] client, version, id in
            _ = LayerShellBinding(shell: self, client: client, version: version, id: id)
        }
    }

    /// The model level of a layer-shell layer (0…3).
    public static func level(ofLayer layer: UInt32) -> WindowLevel {
        switch layer {
        case ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND.rawValue: return .background
        case ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM.rawValue: return .bottom
        case ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue: return .statusBar
        default: return overlayLevel
        }
    }

    func remove(_ surface: LayerSurface) {
        surfaces.removeAll { $0 === surface }
    }

    /// A screen went away: its layer surfaces get `closed` and are hidden for good.
    func screenDidDisconnect(_ id: ScreenID) {
        for surface in surfaces where surface.screenID == id { surface.screenDidDisconnect() }
    }

    /// Places the layer surfaces of a screen and sets its usable area.
    func arrange(screen id: ScreenID) {
        guard let screen = compositor.windows.screen(withID: id) else { return }
        let full = Rect(x: 0, y: 0, width: screen.bounds.width, height: screen.bounds.height)
        var usable = full
        let mine = surfaces.filter { $0.screenID == id && $0.isArranged }
        // Overlay first, background last; older first inside a layer.
        let ordered = mine.enumerated().sorted {
            $0.element.current.layer != $1.element.current.layer
                ? $0.element.current.layer > $1.element.current.layer : $0.offset < $1.offset
        }.map(\.element)
        for surface in ordered where surface.current.hasExclusiveZone {
            let box = surface.current.box(in: usable)
            surface.arranged(box)
            if surface.isMapped { usable = surface.current.shrink(usable) }
        }
        for surface in ordered where !surface.current.hasExclusiveZone {
            surface.arranged(surface.current.box(in: surface.current.exclusiveZone < 0 ? full : usable))
        }
        let global = usable.offsetBy(dx: screen.bounds.x, dy: screen.bounds.y)
        compositor.windows.setUsableArea(usable == full ? nil : global, for: screen)
    }
}
