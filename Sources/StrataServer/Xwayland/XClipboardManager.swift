import CStrataServerGlue
import CXCB
import Glibc

/// The X clipboard manager (freedesktop's ClipboardManager convention): the XWM owns
/// `CLIPBOARD_MANAGER`, so an X application that owns the clipboard as it quits (GTK, Qt) asks it
/// to convert `SAVE_TARGETS`. The manager then reads every type the application offers through the
/// clipboard's bridge (`XSelection.convert`, the same transfers a Wayland paste uses) into memory
/// and answers. When that owner then goes, the saved data becomes the seat's clipboard (a
/// compositor source), which the bridge offers back to X: what was copied in an X application
/// can be pasted after it quit, in Wayland and X clients alike.
///
/// Bounded: one save at a time; at most `maxSavedBytes` held (a type that does not fit is left
/// out); at most `maxWriters` pastes of the saved data at once. Nothing waits: an owner that never
/// answers holds the save (and its own quit) until it loses the clipboard or dies.
final class XClipboardManager {
    /// The most bytes of saved clipboard data, all types together.
    static let maxSavedBytes = 32 << 20
    /// Pastes of the saved data written at once; more are closed at once.
    static let maxWriters = 16

    unowned let wm: XWM
    /// The CLIPBOARD bridge.
    unowned let clipboard: XSelection
    /// The save in progress: the request to answer, and what was read so far.
    private var save: Save?
    /// The saved data, until the owner it came from goes (then it is offered) or another owner
    /// or source replaces it.
    private var saved: (owner: xcb_window_t, items: [(mimeTypes: [String], bytes: [UInt8])])?
    /// The saved data offered as the seat's clipboard, while it is.
    private(set) var source: CompositorSelectionSource?
    private var writers: [BytesToDescriptorWriter] = []

    /// A save in progress: one reader per X target.
    private final class Save {
        let request: xcb_selection_request_event_t
        let owner: xcb_window_t
        var readers: [(mimeTypes: [String], reader: DescriptorReader)] = []
        var total = 0
        init(request: xcb_selection_request_event_t, owner: xcb_window_t) {
            self.request = request
            self.owner = owner
        }
    }

    init(wm: XWM, clipboard: XSelection) {
        self.wm = wm
        self.clipboard = clipboard
    }

    /// Whether a save is in progress (tests).
    var isSaving: Bool { save != nil }
    /// The bytes held (tests).
    var savedBytes: Int { (saved?.items ?? []).reduce(0) { $0 + $1.bytes.count } }

    /// A SelectionRequest for CLIPBOARD_MANAGER.
    func selectionRequest(_ e: xcb_selection_request_event_t) {
        let names = wm.atoms
        let property = e.property == 0 ? e.target : e.property
        if e.target == names["TARGETS"] {
            var list: [UInt32] = [names["TARGETS"], names["SAVE_TARGETS"]]
            xcb_change_property(
                wm.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, property,
                XCB_ATOM_ATOM.rawValue, 32, UInt32(list.count), &list)
            return notify(e, property: property)
        }
        guard e.target == names["SAVE_TARGETS"], save == nil else { return notify(e, property: 0) }
        if clipboard.ownsXSelection {
            // A Wayland source (or the saved data) is the clipboard: nothing of X to keep.
            return notify(e, property: property)
        }
        guard let source = clipboard.source, source.isLive, clipboard.xOwner != 0 else {
            return notify(e, property: 0)
        }
        let save = Save(request: e, owner: clipboard.xOwner)
        // Each X target once, with the MIME types it is offered as.
        var byTarget: [(target: xcb_atom_t, mimeTypes: [String])] = []
        for type in source.mimeTypes {
            guard let target = source.targets[type] else { continue }
            if let index = byTarget.firstIndex(where: { $0.target == target }) {
                byTarget[index].mimeTypes.append(type)
            } else {
                byTarget.append((target, [type]))
            }
        }
        self.save = save
        for (target, types) in byTarget {
            var fds: [Int32] = [-1, -1]
            guard strata_pipe_cloexec(&fds) == 0 else { continue }
            let reader = DescriptorReader(fd: fds[0], display: wm.compositor.display) { [weak save] in
                guard let save else { return 0 }
                return Self.maxSavedBytes - save.total
            } didRead: { [weak save] count in
                save?.total += count
            } didEnd: { [weak self, weak save] in
                guard let self, let save, self.save === save else { return }
                if save.readers.allSatisfy({ $0.reader.isFinished }) { finish(save) }
            }
            save.readers.append((types, reader))
            // The conversion writes into the pipe (the bridge takes the write end).
            clipboard.convert(target, into: fds[1], for: source)
        }
        if save.readers.allSatisfy({ $0.reader.isFinished }) { finish(save) }
    }

    private func finish(_ save: Save) {
        self.save = nil
        var items: [(mimeTypes: [String], bytes: [UInt8])] = []
        for (types, reader) in save.readers where reader.isComplete && !reader.bytes.isEmpty {
            items.append((types, reader.bytes))
        }
        saved = items.isEmpty ? nil : (save.owner, items)
        let property = save.request.property == 0 ? save.request.target : save.request.property
        notify(save.request, property: items.isEmpty ? 0 : property)
    }

    /// The clipboard's X owner changed from `previous`: when it went (`owner` 0) and its data was
    /// saved, the source offering that data (to become the seat's clipboard); otherwise nil, and
    /// what was saved is dropped.
    func ownerDidChange(from previous: xcb_window_t, to owner: xcb_window_t) -> SelectionSource? {
        guard let saved, owner == 0, saved.owner == previous, previous != 0 else {
            self.saved = nil
            return nil
        }
        self.saved = nil
        var types: [String] = []
        var data: [String: [UInt8]] = [:]
        for item in saved.items {
            for type in item.mimeTypes where data[type] == nil {
                types.append(type)
                data[type] = item.bytes
            }
        }
        let source = CompositorSelectionSource(mimeTypes: types) { [weak self] type, fd in
            self?.write(data[type] ?? [], to: fd)
        }
        source.onCancel = { [weak self, weak source] in
            guard let self, self.source === source else { return }
            self.source = nil
        }
        self.source = source
        return source
    }

    private func write(_ bytes: [UInt8], to fd: Int32) {
        writers.removeAll { $0.isFinished }
        guard writers.count < Self.maxWriters else { return }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return }
        let writer = BytesToDescriptorWriter(bytes: bytes, fd: copy, display: wm.compositor.display)
        if !writer.isFinished { writers.append(writer) }
    }

    private func notify(_ e: xcb_selection_request_event_t, property: xcb_atom_t) {
        clipboard.sendNotify(
            requestor: e.requestor, selection: e.selection, target: e.target, property: property, time: e.time)
    }

    /// The XWM is going.
    func shutdown() {
        if let save {
            for (_, reader) in save.readers { reader.finish() }
        }
        save = nil
        saved = nil
        for writer in writers { writer.finish() }
        writers.removeAll()
    }
}
