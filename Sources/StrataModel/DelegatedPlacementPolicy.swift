/// The placement policy while a delegate holds placement (`PolicyDelegation`): a new window gets
/// `builtin`'s frame at once, and the delegate is asked (`placement`); an answered origin moves
/// the window later (`WindowManager.setFrame`). Every other frame (maximized, fullscreen,
/// restored, the work area) is the built-in's. Its name is the built-in's.
public final class DelegatedPlacementPolicy: WindowPlacementPolicy {
    /// The policy whose frame a new window gets (the `placement` command switches it).
    public var builtin: any WindowPlacementPolicy
    unowned let delegation: PolicyDelegation

    init(builtin: any WindowPlacementPolicy, delegation: PolicyDelegation) {
        self.builtin = builtin
        self.delegation = delegation
    }

    public var name: String { builtin.name }

    public func initialFrame(for window: Window, size: Size, requestedOrigin: Point?, on screen: Screen) -> Rect {
        let frame = builtin.initialFrame(for: window, size: size, requestedOrigin: requestedOrigin, on: screen)
        delegation.ask(
            .placement, window: window.id, cause: delegation.manager.currentCause ?? ChangeCause(.map),
            builtin: .origin(frame.origin), builtinName: builtin.name
        ) { question in
            question.size = size
            question.requestedOrigin = requestedOrigin
            question.screen = screen.id
            question.builtinFrame = frame
        }
        return frame
    }

    public func constrainedSize(_ size: Size, on screen: Screen) -> Size {
        builtin.constrainedSize(size, on: screen)
    }

    public func placeNewWindow(_ window: Window, size: Size, in workArea: Rect) -> Rect {
        builtin.placeNewWindow(window, size: size, in: workArea)
    }

    public func workArea(of screen: Screen) -> Rect {
        builtin.workArea(of: screen)
    }

    public func maximizedFrame(for window: Window, on screen: Screen) -> Rect {
        builtin.maximizedFrame(for: window, on: screen)
    }

    public func fullscreenFrame(for window: Window, on screen: Screen) -> Rect {
        builtin.fullscreenFrame(for: window, on: screen)
    }

    public func restoredFrame(for window: Window, saved: Rect, size: Size) -> Rect {
        builtin.restoredFrame(for: window, saved: saved, size: size)
    }
}
