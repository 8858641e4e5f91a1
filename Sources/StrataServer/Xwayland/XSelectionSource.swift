import CXCB
import Glibc

/// What an X client owns as CLIPBOARD or PRIMARY, offered to Wayland clients as a selection
/// source: its TARGETS turned into MIME types. A Wayland client's receive becomes a
/// ConvertSelection of the matching target, streamed into its fd (`XSelection`). Live until an
/// X owner change or a Wayland selection replaces it.
final class XSelectionSource: SelectionSource {
    /// Xwayland's Wayland client (the source's client for the seat's rules).
    let client: OpaquePointer
    let mimeTypes: [String]
    /// The X target to convert for each MIME type.
    let targets: [String: xcb_atom_t]
    private weak var owner: XSelection?
    private var isCancelled = false

    init(client: OpaquePointer, targets: [(mimeType: String, atom: xcb_atom_t)], owner: XSelection) {
        self.client = client
        self.owner = owner
        var types: [String] = []
        var map: [String: xcb_atom_t] = [:]
        for (type, atom) in targets where map[type] == nil {
            map[type] = atom
            types.append(type)
        }
        mimeTypes = types
        self.targets = map
    }

    var isLive: Bool { !isCancelled && owner != nil }

    /// Replaced on the Wayland side (X keeps its owner until the XWM takes the selection).
    func cancel() { isCancelled = true }

    /// The X owner changed or went: offers of this source transfer nothing from now on.
    func invalidate() { isCancelled = true }

    func send(mimeType: String, fd: Int32) {
        guard isLive, let owner, let target = targets[mimeType] else { return }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return }
        owner.convert(target, into: copy, for: self)
    }
}
