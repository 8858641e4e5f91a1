import StrataModel

/// What `settle` (docs/control.md) asks of the scene: which windows are still changing.
public extension Scene {
    /// The shown windows, bottom to top, that are still changing: a surface of theirs (root
    /// surfaces, popups, subsurfaces) committed after `serial` (a `commitSerial` read earlier),
    /// or, with `countingCallbacks`, a shown surface of theirs waits for a frame callback.
    /// Hidden and closed windows are left out: nothing answers their callbacks.
    func changingWindows(committedAfter serial: UInt64, countingCallbacks: Bool) -> [Window] {
        windows.windows.filter { window in
            guard !window.isHidden, !window.isClosed else { return false }
            var changing = false
            window.forEachRootSurface { root in
                if !changing {
                    changing = Self.treeIsChanging(root, after: serial, countingCallbacks: countingCallbacks)
                }
            }
            return changing
        }
    }

    /// Recursion as deep as the tree: at most `TreeLimits.maxSubsurfaceDepth`.
    private static func treeIsChanging(_ surface: Surface, after serial: UInt64, countingCallbacks: Bool) -> Bool {
        if surface.render.lastCommitSerial > serial { return true }
        if countingCallbacks, !surface.frameCallbacks.isEmpty, surface.render.lastPlacement != nil { return true }
        var changing = false
        surface.forEachChild { child, _ in
            if !changing { changing = treeIsChanging(child, after: serial, countingCallbacks: countingCallbacks) }
        }
        return changing
    }
}
