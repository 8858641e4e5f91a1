import StrataAccessibility

/// Where a toolkit's "window-relative" numbers count from, told by its toplevel's own rectangle
/// against the Strata window's frame (`Locator`; docs/accessibility.md, "Coordinates"):
///
/// - the toplevel's size is the frame's: the frame (GTK 4, Chromium, Firefox and Qt with
///   Strata's server-side decorations on Wayland; GTK 3, Chromium and Firefox under Xwayland);
/// - larger: the surface's corner, client-side shadows included (GTK 3 on Wayland);
/// - smaller both ways: the content inside the toolkit's own border, whose side and bottom
///   borders are as wide as each other and the rest is on top (GTK 4 under Xwayland, 5 pixels
///   all round; Qt with client-side decorations, a title bar).
///
/// Where the toplevel reports itself away from 0,0 the elements count from the toplevel: Firefox
/// on Wayland counts from its surface and puts its toplevel at the frame's place in it; Qt 5
/// under X11 reports screen coordinates for both; so the toplevel's place is taken off. Qt 6
/// under X11 counts its corners from two origins: the top left from the window, the bottom
/// right from the X screen, so every size (its toplevel's too) is too large by the window's
/// place, and is taken back by its toplevel's excess over the frame.
struct ToolkitOrigin: Equatable {
    /// Whether `convert` is asked with `surface`.
    var surface = false
    /// What to add to an element's numbers before `convert`.
    var dx = 0
    var dy = 0
    /// What to take off its width and height.
    var excessWidth = 0
    var excessHeight = 0

    init(surface: Bool = false, dx: Int = 0, dy: Int = 0, excessWidth: Int = 0, excessHeight: Int = 0) {
        self.surface = surface
        self.dx = dx
        self.dy = dy
        self.excessWidth = excessWidth
        self.excessHeight = excessHeight
    }

    init(toplevel: AccessibleRect?, frameWidth: Int, frameHeight: Int, toolkit: String = "", x11: Bool = false) {
        guard let top = toplevel, abs(top.x) < 1 << 29, abs(top.y) < 1 << 29 else { return }
        dx = -top.x
        dy = -top.y
        if top.width == frameWidth && top.height == frameHeight { return }
        if toolkit == "Qt" && x11 && top.x == 0 && top.y == 0 && top.width >= frameWidth
            && top.height >= frameHeight && top.width < 1 << 29 && top.height < 1 << 29
        {
            excessWidth = top.width - frameWidth
            excessHeight = top.height - frameHeight
            return
        }
        if top.width < frameWidth && top.height < frameHeight && top.width > 0 && top.height > 0 {
            let border = (frameWidth - top.width) / 2
            dx += border
            dy += max(0, frameHeight - top.height - border)
            return
        }
        surface = true
    }
}
