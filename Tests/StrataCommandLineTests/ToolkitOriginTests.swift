import StrataAccessibility
import Testing

@testable import strata_ctl

/// Which origin a toolkit's window-relative numbers have, told by its toplevel against the
/// Strata window's frame (the figures are what the toolkits report in Strata).
struct ToolkitOriginTests {
    @Test func aToplevelOfTheFramesSizeCountsFromTheFrame() {
        // GTK 4, Chromium, Qt with server-side decorations: 500x444 in a 500x444 frame.
        let top = AccessibleRect(x: 0, y: 0, width: 500, height: 444)
        #expect(ToolkitOrigin(toplevel: top, frameWidth: 500, frameHeight: 444) == ToolkitOrigin())
        #expect(ToolkitOrigin(toplevel: nil, frameWidth: 500, frameHeight: 444) == ToolkitOrigin())
    }

    @Test func aLargerToplevelCountsFromTheSurfaceItsShadowsIncluded() {
        // GTK 3 with client-side shadows.
        let top = AccessibleRect(x: 0, y: 0, width: 700, height: 552)
        #expect(ToolkitOrigin(toplevel: top, frameWidth: 650, frameHeight: 500) == ToolkitOrigin(surface: true))
    }

    @Test func aSmallerToplevelCountsFromItsContentInsideItsOwnDecorations() {
        // Qt 5's bradient decorations on Wayland: 3 pixels a side and below, a 30-pixel title bar.
        let top = AccessibleRect(x: 0, y: 0, width: 494, height: 444)
        #expect(ToolkitOrigin(toplevel: top, frameWidth: 500, frameHeight: 477) == ToolkitOrigin(dx: 3, dy: 30))
    }

    @Test func aToplevelAwayFromTheCornerIsTakenOff() {
        // Qt 5 under X11: the toplevel and its elements in the X screen's coordinates.
        let top = AccessibleRect(x: 341, y: 128, width: 341, height: 512)
        #expect(ToolkitOrigin(toplevel: top, frameWidth: 341, frameHeight: 512) == ToolkitOrigin(dx: -341, dy: -128))
        // A hostile toplevel far away is not used.
        let far = AccessibleRect(x: Int(Int32.max), y: 0, width: 341, height: 512)
        #expect(ToolkitOrigin(toplevel: far, frameWidth: 341, frameHeight: 512) == ToolkitOrigin())
    }

    @Test func qt6UnderX11TakesItsWindowsPlaceOffItsSizes() {
        // A 537x400 dialog at 262,184 on the X screen reports itself 0,0 799x584.
        let top = AccessibleRect(x: 0, y: 0, width: 799, height: 584)
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
