import StrataAccessibility

/// Where a toolkit's window-relative numbers (AT-SPI's window coordinates) count from, told by
/// the size it reports for its toplevel against the size of the Strata window's frame.
///
/// No toolkit counts from X's root: under Xwayland GTK 3, GTK 4 and Chromium subtract their
/// window's root position themselves, so the numbers stay window-relative as on Wayland.
enum ToolkitOrigin: Equatable {
    /// The frame's corner: the toplevel has the frame's size (GTK 4 and Chromium on Wayland,
    /// GTK 3 and Chromium under Xwayland), or its size is unknown.
    case frame
    /// The corner of the window's surface, client-side shadows included: the toplevel is larger
    /// than the frame (GTK 3 on Wayland, whose frame is its xdg window geometry).
    case surface
    /// A point inside the frame: the toplevel is smaller than the frame on both axes. GTK 4
    /// under Xwayland draws a border inside its X window (the frame) and counts from inside it,
    /// the same width on each side (Strata announces no compositing manager, so GTK draws no
    /// uneven shadow): the toplevel starts half the difference in.
    case inset(x: Double, y: Double)

    init(toplevel: AccessibleRect?, frameWidth: Int, frameHeight: Int) {
        guard let toplevel, toplevel.width > 0, toplevel.height > 0,
            toplevel.width != frameWidth || toplevel.height != frameHeight
        else {
            self = .frame
            return
        }
        if toplevel.width <= frameWidth && toplevel.height <= frameHeight {
            self = .inset(x: Double(frameWidth - toplevel.width) / 2, y: Double(frameHeight - toplevel.height) / 2)
        } else {
            self = .surface
        }
    }
}
