/// Watches one of the seat's selections for the compositor itself (a nested backend handing
/// Strata's clipboard to its parent session): told of every change, whoever has the keyboard
/// focus, like a data control device but with no client and no socket. Made by
/// `Seat.observeSelection(_:_:)`; `cancel()` (or the compositor's teardown) ends it.
public final class SelectionObserver: SelectionWatcher {
    /// What the observer is told: the selection's current data, or nil when there is none.
    public struct Contents {
        public let mimeTypes: [String]
        /// The compositor's own source when the selection is one (e.g. the one the observer's
        /// owner set from its parent: not to be handed back).
        public let compositorSource: CompositorSelectionSource?
        fileprivate unowned let selection: Selection
        fileprivate weak var source: (any SelectionSource)?

        /// Whether this is still the selection (its source live and not replaced).
        public var isCurrent: Bool { source.map { selection.isCurrent($0) } ?? false }

        /// Asks the selection's owner to write `mimeType` into `fd` (duplicated for it; the
        /// caller still closes its `fd`). False when the selection changed meanwhile or the type
        /// is not offered.
        @discardableResult
        public func receive(_ mimeType: String, fd: Int32) -> Bool {
            guard let source, selection.isCurrent(source), source.mimeTypes.contains(mimeType) else { return false }
            source.send(mimeType: mimeType, fd: fd)
            return true
        }

        /// The same source as `other`'s (a change of focus re-announces it).
        public func isSameSource(as other: Contents?) -> Bool {
            guard let other, let mine = source, let theirs = other.source else { return false }
            return mine === theirs
        }
    }

    private weak var selection: Selection?
    private let handler: (Contents?) -> Void

    init(selection: Selection, handler: @escaping (Contents?) -> Void) {
        self.selection = selection
        self.handler = handler
    }

    /// Stops telling (idempotent).
    public func cancel() {
        selection?.watcherDidDisappear(self)
        selection = nil
    }

    func selectionDidChange(_ selection: Selection) {
        guard let source = selection.source, source.isLive else { return handler(nil) }
        handler(
            Contents(
                mimeTypes: source.mimeTypes, compositorSource: source as? CompositorSelectionSource,
                selection: selection, source: source))
    }
}
