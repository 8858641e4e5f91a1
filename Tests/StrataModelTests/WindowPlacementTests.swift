import Testing

@testable import StrataModel

/// The placement policies, without sockets: new windows, maximize, fullscreen, restore, the work
/// area exclusive zones leave, and client numbers of any size.
@Suite struct WindowPlacementTests {
    /// A 1920×1080 screen (the second of two, at x = 1920, when `second`) with a 30-pixel panel
    /// at the top and a 50-pixel one on the left: its work area is (50, 30, 1870×1050) in its
    /// own coordinates.
    static func screenWithPanels(_ manager: WindowManager, second: Bool = false) -> Screen {
        let screen = manager.screens[second ? 1 : 0]
        let b = screen.bounds
        manager.setUsableArea(Rect(x: b.x + 50, y: b.y + 30, width: b.width - 50, height: b.height - 30), for: screen)
        return screen
    }

    static let workArea = Rect(x: 50, y: 30, width: 1870, height: 1050)

    static func place(
        _ policy: any WindowPlacementPolicy, _ manager: WindowManager, on screen: Screen,
        width: Int, height: Int, requestedOrigin: Point? = nil
    ) -> Rect {
        let window = manager.createWindow(screen: screen)
        return policy.initialFrame(
            for: window, size: Size(width: width, height: height), requestedOrigin: requestedOrigin, on: screen)
    }

    @Test func theRegistryMakesEveryBuiltInByItsNameAndNothingElse() {
        for name in WindowPlacementPolicies.allNames {
            #expect(WindowPlacementPolicies.named(name)?.name == name)
        }
        #expect(WindowPlacementPolicies.allNames == ["cascade", "top-left", "center"])
        #expect(WindowPlacementPolicies.named("random") == nil)
        #expect(WindowPlacementPolicies.named("") == nil)
        #expect(WindowPlacementPolicies.named("Cascade") == nil)
        #expect(WindowManager().placement.name == WindowPlacementPolicies.defaultName)
        #expect(WindowPlacementPolicies.defaultName == "cascade")
    }

    @Test func theWorkAreaIsTheScreenLessItsExclusiveZonesInScreenCoordinates() {
        let manager = makeManager(screens: 2)
        let policy = CascadePlacement()
        #expect(policy.workArea(of: manager.screens[1]) == Rect(x: 0, y: 0, width: 1920, height: 1080))
        let screen = Self.screenWithPanels(manager, second: true)
        #expect(screen.bounds.x == 1920)
        #expect(policy.workArea(of: screen) == Self.workArea)
    }

    @Test func cascadeStepsEachNewWindowFromTheWorkAreaCornerAndStartsAgainAfterTen() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        let policy = CascadePlacement()
        var frames: [Rect] = []
        for _ in 0..<11 { frames.append(Self.place(policy, manager, on: screen, width: 300, height: 200)) }
        for (index, frame) in frames.prefix(10).enumerated() {
            #expect(frame == Rect(x: 50 + 32 * index, y: 30 + 32 * index, width: 300, height: 200))
        }
        #expect(frames[10] == Rect(x: 50, y: 30, width: 300, height: 200))
    }

    @Test func cascadeKeepsAnAxisAtTheCornerWhereTheStepWouldPushTheWindowOut() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        let policy = CascadePlacement()
        _ = Self.place(policy, manager, on: screen, width: 10, height: 10)
        // Second step (32): 1850 + 32 does not fit in 1870, 1000 + 32 fits in 1050.
        #expect(
            Self.place(policy, manager, on: screen, width: 1850, height: 1000)
                == Rect(x: 50, y: 62, width: 1850, height: 1000))
    }

    @Test func topLeftPlacesEveryNewWindowAtTheWorkAreaCorner() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        let policy = TopLeftPlacement()
        for _ in 0..<3 {
            #expect(
                Self.place(policy, manager, on: screen, width: 300, height: 200)
                    == Rect(x: 50, y: 30, width: 300, height: 200))
        }
    }

    @Test func centerCentresNewWindowsInTheWorkArea() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        let policy = CenterPlacement()
        // (1870 - 301) / 2 = 784 (rounded down), (1050 - 200) / 2 = 425.
        #expect(
            Self.place(policy, manager, on: screen, width: 301, height: 200)
                == Rect(x: 50 + 784, y: 30 + 425, width: 301, height: 200))
        #expect(
            Self.place(policy, manager, on: screen, width: 301, height: 200)
                == Rect(x: 834, y: 455, width: 301, height: 200))
    }

    @Test func centerStartsAWindowLargerThanTheWorkAreaAtItsEdge() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        #expect(
            Self.place(CenterPlacement(), manager, on: screen, width: 4000, height: 500)
                == Rect(x: 50, y: 30 + 275, width: 4000, height: 500))
    }

    @Test func placementOnAnotherScreenIsInThatScreensCoordinates() {
        let manager = makeManager(screens: 2)
        let screen = Self.screenWithPanels(manager, second: true)
        #expect(
            Self.place(TopLeftPlacement(), manager, on: screen, width: 100, height: 100)
                == Rect(x: 50, y: 30, width: 100, height: 100))
        #expect(
            Self.place(CenterPlacement(), manager, on: screen, width: 70, height: 50)
                == Rect(x: 50 + 900, y: 30 + 500, width: 70, height: 50))
    }

    @Test func everyPolicyHonoursARequestedPositionInsideTheWorkArea() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let frame = Self.place(
                policy, manager, on: screen, width: 300, height: 200, requestedOrigin: Point(x: 70, y: 90))
            #expect(frame == Rect(x: 70, y: 90, width: 300, height: 200), "\(name)")
        }
    }

    @Test func aRequestedPositionOutsideTheWorkAreaIsMovedInside() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            // Under the panels (top-left), and past the far edges (bottom-right).
            #expect(
                Self.place(policy, manager, on: screen, width: 300, height: 200, requestedOrigin: Point(x: 7, y: -9))
                    == Rect(x: 50, y: 30, width: 300, height: 200), "\(name)")
            #expect(
                Self.place(
                    policy, manager, on: screen, width: 300, height: 200, requestedOrigin: Point(x: 1800, y: 1000))
                    == Rect(x: 1920 - 300, y: 1080 - 200, width: 300, height: 200), "\(name)")
        }
    }

    @Test func aWindowLargerThanTheWorkAreaStartsAtItsTopLeftOnThatAxisWhateverItAskedFor() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let tall = Self.place(
                policy, manager, on: screen, width: 300, height: 1200, requestedOrigin: Point(x: 100, y: 400))
            #expect(tall == Rect(x: 100, y: 30, width: 300, height: 1200), "\(name)")
            let wide = Self.place(policy, manager, on: screen, width: 2500, height: 100)
            #expect(wide.x == 50 && wide.width == 2500, "\(name)")
            #expect(wide.y >= 30 && wide.y + 100 <= 1080, "\(name)")
        }
    }

    @Test func theConstrainedSizeIsAtMostTheWorkAreaOnEachAxis() throws {
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let manager = makeManager()
            let screen = Self.screenWithPanels(manager)
            #expect(
                policy.constrainedSize(Size(width: 300, height: 200), on: screen) == Size(width: 300, height: 200),
                "\(name)")
            #expect(
                policy.constrainedSize(Size(width: 702, height: 746), on: screen) == Size(width: 702, height: 746),
                "\(name)")
            // gtk3-demo's Button Boxes, 702×746, on a 720-high screen less a 30-pixel panel.
            try manager.setMode(mode720, for: screen)
            manager.setUsableArea(Rect(x: 0, y: 30, width: 1280, height: 690), for: screen)
            #expect(
                policy.constrainedSize(Size(width: 702, height: 746), on: screen) == Size(width: 702, height: 690),
                "\(name)")
            #expect(
                policy.constrainedSize(Size(width: 5000, height: 5000), on: screen) == Size(width: 1280, height: 690),
                "\(name)")
            #expect(
                policy.constrainedSize(Size(width: Int.max, height: Int.min), on: screen)
                    == Size(width: 1280, height: 0), "\(name)")
            // Placed at the constrained size: inside the work area, whatever the policy.
            let frame = policy.initialFrame(
                for: manager.createWindow(screen: screen),
                size: policy.constrainedSize(Size(width: 702, height: 746), on: screen),
                requestedOrigin: nil, on: screen)
            #expect(frame.x >= 0 && frame.maxX <= 1280 && frame.y == 30 && frame.maxY == 720, "\(name): \(frame)")
        }
    }

    @Test func maximizeFillsTheWorkAreaLeftByExclusiveZones() {
        let manager = makeManager(screens: 2)
        let screen = Self.screenWithPanels(manager, second: true)
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let window = manager.createWindow(screen: screen)
            #expect(policy.maximizedFrame(for: window, on: screen) == Self.workArea, "\(name)")
        }
    }

    @Test func maximizeFollowsTheWorkAreaWhenAPanelGoes() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        let window = manager.createWindow(screen: screen)
        manager.setUsableArea(nil, for: screen)
        #expect(
            CascadePlacement().maximizedFrame(for: window, on: screen) == Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func fullscreenCoversTheWholeScreenPanelsIncluded() {
        let manager = makeManager(screens: 2)
        let screen = Self.screenWithPanels(manager, second: true)
        try? manager.setMode(mode720, for: screen)
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let window = manager.createWindow(screen: screen)
            #expect(
                policy.fullscreenFrame(for: window, on: screen) == Rect(x: 0, y: 0, width: 1280, height: 720), "\(name)"
            )
        }
    }

    @Test func restoreReturnsToTheSavedOriginAtTheClientsNewSize() {
        let manager = makeManager()
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let window = manager.createWindow()
            let saved = Rect(x: 64, y: 96, width: 300, height: 200)
            #expect(
                policy.restoredFrame(for: window, saved: saved, size: Size(width: 310, height: 190))
                    == Rect(x: 64, y: 96, width: 310, height: 190), "\(name)")
        }
    }

    @Test func hugeSizesAndPositionsComeOutClampedToTheCoordinateLimit() {
        let manager = makeManager()
        let screen = Self.screenWithPanels(manager)
        let limit = Int(Coordinate.limit)
        for name in WindowPlacementPolicies.allNames {
            let policy = WindowPlacementPolicies.named(name)!
            let huge = Self.place(policy, manager, on: screen, width: Int.max, height: Int.max)
            #expect(huge.width == limit && huge.height == limit, "\(name)")
            #expect(huge.x == 50 && huge.y == 30, "\(name): a window larger than the area starts at its corner")
            let negative = Self.place(policy, manager, on: screen, width: Int.min, height: -5)
            #expect(negative.width == 0 && negative.height == 0, "\(name)")
            // Far positions come back inside the work area.
            let far = Self.place(
                policy, manager, on: screen, width: 10, height: 10, requestedOrigin: Point(x: 1e300, y: -1e300))
            #expect(far == Rect(x: 1910, y: 30, width: 10, height: 10), "\(name)")
            let nan = Self.place(
                policy, manager, on: screen, width: 10, height: 10, requestedOrigin: Point(x: .nan, y: .infinity))
            #expect(nan == Rect(x: 50, y: 1070, width: 10, height: 10), "\(name)")
            let window = manager.createWindow(screen: screen)
            let restored = policy.restoredFrame(
                for: window, saved: Rect(x: Int.max, y: Int.min, width: 1, height: 1),
                size: Size(width: Int.max, height: Int.min))
            #expect(restored == Rect(x: limit, y: -limit, width: limit, height: 0), "\(name)")
        }
    }

    @Test func aSwitchedPolicyPlacesTheNextWindowAndMovesNoOther() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let first = manager.shownWindow(frame: Rect(x: 5, y: 6, width: 10, height: 10))
        manager.placement = CenterPlacement()
        #expect(first.frame == Rect(x: 5, y: 6, width: 10, height: 10))
        #expect(
            Self.place(manager.placement, manager, on: screen, width: 20, height: 40)
                == Rect(x: 950, y: 520, width: 20, height: 40))
    }
}
