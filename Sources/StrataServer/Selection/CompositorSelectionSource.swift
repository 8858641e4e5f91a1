import Glibc

/// A selection offered by the compositor itself, on behalf of something outside Strata's
/// Wayland clients: the parent session of a nested Strata (its Wayland clipboard, or the X
/// server's CLIPBOARD and PRIMARY). Strata's clients see it as any other selection; when one of
/// them asks for the data, `provide(mimeType, fd)` is called on the loop with the write end of
/// the client's pipe. `provide` must not block and does not own `fd` (dup it to keep it).
///
/// Its MIME types are bounded as a client's are (`ClientBudget.maxMimeTypesPerSource` types of at
/// most `maxMimeTypeLength` bytes, `maxMimeBytesPerSource` bytes of offer events, no duplicates):
/// what is beyond is dropped, so a hostile parent cannot make Strata flood its own clients.
public final class CompositorSelectionSource: SelectionSource {
    public let mimeTypes: [String]
    private let provide: (String, Int32) -> Void
    /// Called once when the source stops being the selection because something replaced it.
    public var onCancel: (() -> Void)?
    public private(set) var isCancelled = false

    public init(mimeTypes: [String], provide: @escaping (_ mimeType: String, _ fd: Int32) -> Void) {
        var kept: [String] = []
        var seen: Set<String> = []
        var bytes = 0
        for type in mimeTypes
        where !type.isEmpty && type.utf8.count <= ClientBudget.maxMimeTypeLength && !type.utf8.contains(0) {
            guard kept.count < ClientBudget.maxMimeTypesPerSource else { break }
            let cost = type.utf8.count + 16
            guard bytes + cost <= ClientBudget.maxMimeBytesPerSource else { break }
            guard seen.insert(type).inserted else { continue }
            bytes += cost
            kept.append(type)
        }
        self.mimeTypes = kept
        self.provide = provide
    }

    var isLive: Bool { !isCancelled }

    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        onCancel?()
    }

    /// A client asked for `mimeType`: only types offered are provided.
    func send(mimeType: String, fd: Int32) {
        guard isLive, mimeTypes.contains(mimeType) else { return }
        provide(mimeType, fd)
    }
}
