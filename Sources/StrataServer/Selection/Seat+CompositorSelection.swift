/// The compositor's own access to the seat's two selections, for what lies outside Strata's
/// Wayland clients (a nested backend's parent session). Both need no focus and no serial: the
/// compositor is trusted, as data control is.
extension Seat {
    /// The clipboard (wl_data_device) or the primary selection (middle-click paste).
    public enum SelectionKind: Sendable, CaseIterable {
        case clipboard
        case primary
    }

    func selection(_ kind: SelectionKind) -> Selection {
        kind == .clipboard ? clipboard : primarySelection
    }

    /// Makes `source` the `kind` selection (the previous source is cancelled), or clears it.
    public func setCompositorSelection(_ source: CompositorSelectionSource?, _ kind: SelectionKind) {
        selection(kind).setFromControl(source)
    }

    /// Clears the `kind` selection if `source` still holds it (the parent's selection went away).
    public func clearCompositorSelection(_ source: CompositorSelectionSource, _ kind: SelectionKind) {
        let selection = selection(kind)
        guard selection.source === source else { return }
        selection.setFromControl(nil)
    }

    /// Calls `handler` with the `kind` selection now and on every change of it, until the
    /// returned observer is cancelled.
    public func observeSelection(_ kind: SelectionKind, _ handler: @escaping (SelectionObserver.Contents?) -> Void)
        -> SelectionObserver
    {
        let selection = selection(kind)
        let observer = SelectionObserver(selection: selection, handler: handler)
        selection.watcherDidAppear(observer)
        return observer
    }
}
