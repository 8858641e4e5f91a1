import StrataAccessibility
import Testing

@testable import strata_ctl

/// Which origin a toolkit's window-relative numbers have, told by its toplevel against the
/// Strata window's frame (the figures are what gtk3-demo, gtk4-demo, Chromium, Firefox and Qt's
/// examples report in Strata).
struct ToolkitOriginTests {
    static func toplevel(_ width: Int, _ height: Int, at x: Int = 0, _ y: Int = 0) -> AccessibleRect {
        AccessibleRect(x: x, y: y, width: width, height: height)
    }

    @Test func aToplevelOfTheFramesSizeCountsFromTheFrame() {
        // GTK 4, Chromium, Qt with server-side decorations; GTK 3 (810×656) under Xwayland.
        #expect(ToolkitOrigin(toplevel: Self.toplevel(500, 444), frameWidth: 500, frameHeight: 444) == ToolkitOrigin())
        #expect(ToolkitOrigin(toplevel: Self.toplevel(810, 656), frameWidth: 810, frameHeight: 656) == ToolkitOrigin())
        #expect(ToolkitOrigin(toplevel: nil, frameWidth: 500, frameHeight: 444) == ToolkitOrigin())
    }

    @Test func aLargerToplevelCountsFromTheSurfaceItsShadowsIncluded() {
        // GTK 3 on Wayland: its surface is its frame and its shadows.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(700, 552), frameWidth: 650, frameHeight: 500)
                == ToolkitOrigin(surface: true))
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(852, 640), frameWidth: 800, frameHeight: 650)
                == ToolkitOrigin(surface: true))
    }

    @Test func aSmallerToplevelCountsFromItsContentInsideItsOwnBorder() {
        // Qt 5's decorations on Wayland: 3 pixels a side and below, a 30-pixel title bar.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(494, 444), frameWidth: 500, frameHeight: 477)
                == ToolkitOrigin(dx: 3, dy: 30))
        // GTK 4 under Xwayland: a 790×590 window in an 800×600 X window, 5 in on each side.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(790, 590), frameWidth: 800, frameHeight: 600)
                == ToolkitOrigin(dx: 5, dy: 5))
    }

    @Test func aToplevelAwayFromTheCornerIsTakenOff() {
        // Firefox on Wayland: its toplevel at the frame's place in its surface, the frame's size.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(700, 500, at: 26, 23), frameWidth: 700, frameHeight: 500)
                == ToolkitOrigin(dx: -26, dy: -23))
        // Qt 5 under X11: the toplevel and its elements in the X screen's coordinates.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(341, 512, at: 341, 128), frameWidth: 341, frameHeight: 512)
                == ToolkitOrigin(dx: -341, dy: -128))
        // A hostile toplevel far away is not used.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(341, 512, at: Int(Int32.max), 0), frameWidth: 341, frameHeight: 512)
                == ToolkitOrigin())
    }

    @Test func qt6UnderX11TakesItsWindowsPlaceOffItsSizes() {
        // A 537x400 dialog at 262,184 on the X screen reports itself 0,0 799x584.
        let top = Self.toplevel(799, 584)
        #expect(
            ToolkitOrigin(toplevel: top, frameWidth: 537, frameHeight: 400, toolkit: "Qt", x11: true)
                == ToolkitOrigin(excessWidth: 262, excessHeight: 184))
        // The same numbers from GTK, or from Qt on Wayland, are a surface's.
        #expect(
            ToolkitOrigin(toplevel: top, frameWidth: 537, frameHeight: 400, toolkit: "GTK", x11: true)
                == ToolkitOrigin(surface: true))
        #expect(
            ToolkitOrigin(toplevel: top, frameWidth: 537, frameHeight: 400, toolkit: "Qt", x11: false)
                == ToolkitOrigin(surface: true))
    }
}
