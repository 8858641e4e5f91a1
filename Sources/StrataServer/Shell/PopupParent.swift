import StrataModel

/// What an xdg_popup is placed against and drawn with: an xdg_surface (a toplevel's or another
/// popup's) or a layer surface (zwlr_layer_surface_v1.get_popup).
protocol PopupParent: AnyObject {
    /// Whether the parent is shown (a popup of an unmapped parent is not).
    var isMapped: Bool { get }
    /// The parent's wl_surface.
    var surface: Surface? { get }
    /// The parent's window geometry in its surface's coordinates (popups are placed relative to it).
    var geometry: Rect { get }
    /// The parent's popups, bottom to top.
    var popups: [XdgPopup] { get set }
}
