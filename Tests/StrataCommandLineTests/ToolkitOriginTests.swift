import StrataAccessibility
import Testing

@testable import strata_ctl

/// Which origin a toolkit's window-relative numbers have, from its toplevel's size against the
/// frame's (the sizes measured from gtk3-demo, gtk4-demo and Chromium under Strata).
@Suite struct ToolkitOriginTests {
    static func toplevel(_ width: Int, _ height: Int) -> AccessibleRect {
        AccessibleRect(x: 0, y: 0, width: width, height: height)
    }

    @Test func aToplevelOfTheFramesSizeCountsFromTheFrame() {
        // GTK 4 on Wayland; GTK 3 (810×656) and Chromium under Xwayland.
        #expect(ToolkitOrigin(toplevel: Self.toplevel(810, 656), frameWidth: 810, frameHeight: 656) == .frame)
        #expect(ToolkitOrigin(toplevel: nil, frameWidth: 810, frameHeight: 656) == .frame)
        #expect(ToolkitOrigin(toplevel: Self.toplevel(0, 0), frameWidth: 810, frameHeight: 656) == .frame)
    }

    @Test func aLargerToplevelCountsFromTheSurfaceWithItsShadows() {
        // GTK 3 on Wayland: its surface is its frame and its shadows.
        #expect(ToolkitOrigin(toplevel: Self.toplevel(852, 702), frameWidth: 800, frameHeight: 650) == .surface)
        #expect(ToolkitOrigin(toplevel: Self.toplevel(852, 640), frameWidth: 800, frameHeight: 650) == .surface)
    }

    @Test func aSmallerToplevelCountsFromInsideTheBorderItDrawsInItsXWindow() {
        // GTK 4 under Xwayland: a 790×590 window in an 800×600 X window, 5 in on each side.
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(790, 590), frameWidth: 800, frameHeight: 600) == .inset(x: 5, y: 5))
        #expect(
            ToolkitOrigin(toplevel: Self.toplevel(799, 600), frameWidth: 800, frameHeight: 600)
                == .inset(x: 0.5, y: 0))
    }
}
