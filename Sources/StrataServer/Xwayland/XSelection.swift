import CStrataServerGlue
import CXCB
import Glibc

/// One selection bridged between X and Wayland: CLIPBOARD ↔ the seat's clipboard, PRIMARY ↔ its
/// primary selection (`docs/xwayland.md`, "Clipboard").
///
/// X → Wayland: XFixes tells the XWM when an X client takes the selection; its TARGETS are
/// converted into the XWM's hidden selection window and offered (UTF8_STRING as
/// `text/plain;charset=utf-8`, STRING and TEXT as `text/plain`, targets named like MIME types
/// as they are) as an `XSelectionSource`. A Wayland client's receive is a conversion
/// (`XToWaylandTransfer`); one runs at a time per selection, at most `maxQueuedConversions`
/// wait.
///
/// Wayland → X: when a Wayland client sets the selection, the XWM interns its MIME types (no
/// round trip waited for) and then owns the X selection; each SelectionRequest is answered from
/// the source through a pipe (`WaylandToXTransfer`), at most `maxRequests` at once.
///
/// Nothing waits: replies come through the XWM's `XReplyQueue`. Nothing times out either: a
/// transfer ends when its peer does (the X owner changes or goes; the requestor's window is
/// destroyed; the reader or writer closes its fd).
///
/// XdndSelection is one too, without a seat selection (`selection` nil): its Wayland source is
/// a drag's, offered by the XDND bridge (`offerDragSource`, `XDND`).
final class XSelection: SelectionWatcher {
    /// The most bytes one transfer carries, either way (64 MiB: the same figure as a client's
    /// budget of copied buffers); past it the transfer ends.
    static let maxTransferBytes = 64 << 20
    /// The most bytes of one property the XWM reads (X's usual maximum request size, 16 MiB; an
    /// owner with more must use INCR).
    static let maxPropertyWords: UInt32 = 4 << 20
    /// The most targets of an X owner read (a longer TARGETS list is cut there; the rest of the
    /// property is not read).
    static let maxTargets = 256
    /// One property of an answer to an X client; more goes by INCR.
    static let incrChunk = 64 << 10
    /// `incrChunk`, or less when the X server's maximum request is smaller (it never is: X
    /// guarantees 16 KiB, Xwayland takes 16 MiB with BIG-REQUESTS).
    let chunkSize: Int
    static let maxQueuedConversions = 16
    /// Conversions of gone owners still writing what they hold (at most one property each);
    /// more are closed with their bytes dropped (an owner changing again and again while a
    /// reader does not read would otherwise pile properties up).
    static let maxDraining = 2
    static let maxRequests = 16

    unowned let wm: XWM
    /// CLIPBOARD or PRIMARY.
    let atom: xcb_atom_t
    /// The property of the selection window conversions arrive in.
    let property: xcb_atom_t
    /// The seat selection bridged; nil: XdndSelection (a drag's source, given by `XDND`).
    unowned let selection: Selection?

    // X → Wayland
    /// The X client's window owning the selection (0: none, or the XWM).
    private(set) var xOwner: xcb_window_t = 0
    /// Owner changes seen (an XFixes report makes the start's owner query stale).
    private(set) var ownerChanges = 0
    private(set) var source: XSelectionSource?
    private var conversions: [XToWaylandTransfer] = []
    /// Conversions whose owner went while the reader's pipe was full or a chunk was still unread:
    /// what they hold and that chunk are written, then their fd closes.
    private var draining: [XToWaylandTransfer] = []

    // Wayland → X
    private weak var waylandSource: SelectionSource?
    /// The targets answered for the Wayland source: each X target and the MIME type it is.
    private var offered: [xcb_atom_t: String] = [:]
    private var offeredOrder: [xcb_atom_t] = []
    private(set) var ownsXSelection = false
    private var ownTimestamp: xcb_timestamp_t = 0
    /// Bumped at each Wayland selection change: late intern replies of an older one are dropped.
    private var generation = 0
    private(set) var requests: [WaylandToXTransfer] = []

    init(wm: XWM, atom: xcb_atom_t, property: xcb_atom_t, selection: Selection?, maxRequestBytes: Int) {
        self.wm = wm
        chunkSize = max(min(Self.incrChunk, maxRequestBytes - 64), 1024)
        self.atom = atom
        self.property = property
        self.selection = selection
    }

    private var connection: OpaquePointer { wm.connection }
    private var window: xcb_window_t { wm.selectionWindow }

    /// Conversions running or waiting (tests).
    var conversionCount: Int { conversions.count + draining.count }
    /// Conversions of gone owners still writing (tests).
    var drainingCount: Int { draining.count }
    /// The conversion the owner is answering (tests).
    var headConversion: XToWaylandTransfer? { conversions.first }

    // MARK: X → Wayland

    /// Asked when the X owner changes from an X client's window (the first) to another owner (0:
    /// none): a source to offer in place of the one that went (the clipboard manager's saved
    /// data), or nil.
    var ownerWillChange: ((_ previous: xcb_window_t, _ owner: xcb_window_t) -> SelectionSource?)?

    /// XFixes: the selection's owner is now `owner` (0: none).
    func ownerDidChange(to owner: xcb_window_t, timestamp: xcb_timestamp_t) {
        ownerChanges += 1
        let replacement = ownerWillChange?(xOwner, owner)
        if owner == window {
            // A Wayland source is the selection now: what was asked of an X owner is dropped
            // (a TARGETS conversion answered late would otherwise offer X's old data).
            ownsXSelection = true
            ownTimestamp = timestamp
            abortConversions()
            xOwner = 0
            dropSource()
            return
        }
        ownsXSelection = false
        abortConversions()
        xOwner = owner
        guard owner != 0 else {
            if let replacement {
                // The X owner went and its data was saved: offered in its place (and to X, once
                // the seat's selection change reaches `selectionDidChange`).
                let old = source
                source = nil
                old?.invalidate()
                selection?.setFromControl(replacement)
            } else {
                dropSource()
            }
            return
        }
        // XdndSelection: an X drag's types come in its XdndEnter (`XDND`), not from TARGETS.
        guard selection != nil else { return dropSource() }
        // Its targets first; the source is offered when they are known.
        let request = XToWaylandTransfer(targetsAtom: wm.atoms["TARGETS"]) { [weak self] bytes in
            self?.targetsDidArrive(bytes, owner: owner)
        }
        conversions.append(request)
        startNextConversion()
    }

    private func dropSource() {
        guard let old = source else { return }
        source = nil
        old.invalidate()
        if let selection, selection.source === old { selection.setFromControl(nil) }
    }

    /// XdndSelection: the types of `owner`'s drag (XdndEnter's, or its XdndTypeList) are named
    /// as TARGETS are and offered as the source; `done` gets it (nil: none named, or the owner
    /// changed meanwhile).
    func offerDragTypes(_ types: [xcb_atom_t], owner: xcb_window_t, done: @escaping (XSelectionSource?) -> Void) {
        guard selection == nil, owner != 0, owner == xOwner else { return done(nil) }
        var bytes: [UInt8] = []
        for type in types.prefix(Self.maxTargets) { withUnsafeBytes(of: type) { bytes.append(contentsOf: $0) } }
        targetsDidArrive(bytes, owner: owner) { [weak self] in done(self?.source) }
    }

    private func targetsDidArrive(_ bytes: [UInt8], owner: xcb_window_t, then: (() -> Void)? = nil) {
        guard owner == xOwner else { return }
        var atoms: [xcb_atom_t] = []
        var index = 0
        while index + 4 <= bytes.count, atoms.count < Self.maxTargets {
            atoms.append(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt32.self) })
            index += 4
        }
        // Text targets map at once (UTF-8 preferred: `text/plain` is UTF8_STRING's data when
        // the owner has it, else TEXT's or STRING's); others are named by GetAtomName (asked
        // together, waited for by none).
        let atomNames = wm.atoms
        let utf8 = atomNames["UTF8_STRING"], text = atomNames["TEXT"], string = XCB_ATOM_STRING.rawValue
        var known: [(String, xcb_atom_t)] = []
        if atoms.contains(utf8) { known.append(("text/plain;charset=utf-8", utf8)) }
        if let plain = [utf8, text, string].first(where: { atoms.contains($0) }) {
            known.append(("text/plain", plain))
        }
        let skipped: Set<xcb_atom_t> = [
            utf8, text, string, atomNames["TARGETS"], atomNames["TIMESTAMP"], atomNames["MULTIPLE"],
            atomNames["SAVE_TARGETS"], atomNames["INCR"], 0,
        ]
        var unknown: [xcb_atom_t] = []
        for atom in atoms
        where !skipped.contains(atom) && !unknown.contains(atom)
            && unknown.count < ClientBudget.maxMimeTypesPerSource
        {
            unknown.append(atom)
        }
        var named: [(String, xcb_atom_t)] = []
        var remaining = unknown.count
        let finish: () -> Void = { [weak self] in
            guard let self, owner == self.xOwner else { return }
            self.offerSource(known + named)
            then?()
        }
        guard remaining > 0 else { return finish() }
        for atom in unknown {
            let cookie = xcb_get_atom_name(connection, atom)
            wm.replies.expect(cookie.sequence) { reply in
                if let reply {
                    let typed = reply.assumingMemoryBound(to: xcb_get_atom_name_reply_t.self)
                    let length = Int(xcb_get_atom_name_name_length(typed))
                    if let name = xcb_get_atom_name_name(typed), length > 0, length <= ClientBudget.maxMimeTypeLength {
                        let text = String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
                        // MIME types only (type/subtype); X's own targets (COMPOUND_TEXT…) are not.
                        if text.contains("/") { named.append((text, atom)) }
                    }
                }
                remaining -= 1
                if remaining == 0 { finish() }
            }
        }
        wm.flushAndReadSoon()
    }

    private func offerSource(_ targets: [(String, xcb_atom_t)]) {
        guard let client = wm.xwayland.client, !ownsXSelection else { return }
        guard !targets.isEmpty else {
            // An owner without TARGETS (or none Strata can name): X holds the selection, so
            // the Wayland one is cleared rather than left pasting older data.
            let old = source
            source = nil
            old?.invalidate()
            selection?.setFromControl(nil)
            return
        }
        var capped: [(mimeType: String, atom: xcb_atom_t)] = []
        for (type, atom) in targets where capped.count < ClientBudget.maxMimeTypesPerSource {
            capped.append((type, atom))
        }
        let new = XSelectionSource(client: client, targets: capped, owner: self)
        let old = source
        source = new
        old?.invalidate()
        selection?.setFromControl(new)
    }

    /// A Wayland client asked for `target` into `fd` (taken).
    func convert(_ target: xcb_atom_t, into fd: Int32, for requester: XSelectionSource) {
        guard requester === source, xOwner != 0, conversions.count < Self.maxQueuedConversions else {
            Descriptors.close(fd)
            return
        }
        let transfer = XToWaylandTransfer(target: target, fd: fd)
        transfer.watch(display: wm.compositor.display)
        transfer.didFail = { [weak self, unowned transfer] in self?.end(transfer) }
        transfer.didDrain = { [weak self, unowned transfer] in self?.transferDidDrain(transfer) }
        conversions.append(transfer)
        startNextConversion()
    }

    private func startNextConversion() {
        guard let head = conversions.first, head.stage == .queued else { return }
        head.stage = .converting
        wm.writeWhenWritable { [weak self, weak head] in
            guard let self, let head, head.stage == .converting, conversions.first === head else { return }
            xcb_convert_selection(connection, window, atom, head.target, property, UInt32(XCB_CURRENT_TIME))
        }
        wm.flushAndReadSoon()
    }

    private func end(_ transfer: XToWaylandTransfer) {
        // A TARGETS conversion that failed (not finished by its reply): no targets.
        let failedTargets = transfer.stage == .finished ? nil : transfer.receivedTargets
        transfer.finish()
        draining.removeAll { $0 === transfer }
        let wasHead = conversions.first === transfer
        conversions.removeAll { $0 === transfer }
        if wasHead {
            // Whatever the owner still sends for it is not read: the property is cleared.
            wm.writeWhenWritable { [weak self] in
                guard let self else { return }
                xcb_delete_property(connection, window, property)
            }
            startNextConversion()
        }
        failedTargets?([])
    }

    /// The owner changed or went: conversions end. One still writing what it holds, or with a
    /// chunk the owner put in the property before it went (a read in flight, or a NewValue seen
    /// while the last chunk was being written), writes that first, then its fd closes.
    private func abortConversions() {
        let all = conversions
        conversions.removeAll()
        for transfer in all {
            let fetching = transfer.stage == .fetching
            let unread = fetching || (transfer.isIncremental && transfer.chunkIsWaiting)
            guard transfer.receivedTargets == nil, transfer.hasPendingBytes || unread,
                draining.count < Self.maxDraining
            else {
                transfer.finish()
                continue
            }
            transfer.endSeen = true
            draining.append(transfer)
            // A read in flight: its reply writes, then the drain ends it.
            if fetching { continue }
            transfer.stage = .waitingForChunk
            // Read now, before a new owner's conversion can use the property.
            if transfer.chunkIsWaiting { fetch(transfer) }
        }
    }

    /// SelectionNotify on the selection window: the owner answered the head conversion.
    func selectionNotify(_ e: xcb_selection_notify_event_t) {
        guard let head = conversions.first, head.stage == .converting, e.target == head.target else { return }
        guard e.property != 0 else { return end(head) }
        fetch(head)
    }

    private func fetch(_ transfer: XToWaylandTransfer) {
        transfer.stage = .fetching
        transfer.chunkIsWaiting = false
        // TARGETS: the first `maxTargets` atoms only.
        let words = transfer.receivedTargets == nil ? Self.maxPropertyWords : UInt32(Self.maxTargets)
        wm.writeWhenWritable { [weak self, weak transfer] in
            guard let self, let transfer, transfer.stage == .fetching else { return }
            let cookie = xcb_get_property(connection, 1, window, property, XCB_ATOM_ANY.rawValue, 0, words)
            wm.replies.expect(cookie.sequence) { [weak self, weak transfer] reply in
                guard let self, let transfer, transfer.stage == .fetching else { return }
                self.propertyDidArrive(reply, for: transfer)
            }
        }
        wm.flushAndReadSoon()
    }

    private func propertyDidArrive(_ reply: UnsafeMutableRawPointer?, for transfer: XToWaylandTransfer) {
        guard let reply else { return end(transfer) }
        let typed = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
        // Larger than one read: an owner must use INCR for that.
        guard typed.pointee.bytes_after == 0 || transfer.receivedTargets != nil else { return end(transfer) }
        let length = Int(xcb_get_property_value_length(typed))
        let bytes = UnsafeRawBufferPointer(start: xcb_get_property_value(typed), count: length > 0 ? length : 0)
        if !transfer.isIncremental, typed.pointee.type == wm.atoms["INCR"] {
            // The owner starts sending chunks now that the INCR property is deleted.
            transfer.isIncremental = true
            transfer.stage = .waitingForChunk
            if transfer.chunkIsWaiting { fetch(transfer) } else if transfer.endSeen { end(transfer) }
            return
        }
        if let received = transfer.receivedTargets {
            // TARGETS: never INCR in practice; a partial list is not offered.
            guard !transfer.isIncremental else { return end(transfer) }
            transfer.finish()
            received(Array(bytes))
            return end(transfer)
        }
        if !transfer.isIncremental || length == 0 { transfer.endSeen = true }
        transfer.stage = .waitingForChunk
        if length > 0, transfer.isIncremental, transfer.chunkIsWaiting, draining.contains(where: { $0 === transfer }) {
            // The owner went with its next chunk in the property: read now, before a new
            // owner's conversion uses the property (this chunk is held meanwhile).
            fetch(transfer)
        }
        if length > 0 {
            transfer.write(bytes)
        } else {
            transferDidDrain(transfer)
        }
    }

    /// The fd took everything held: the end closes it; INCR fetches a chunk that came meanwhile.
    private func transferDidDrain(_ transfer: XToWaylandTransfer) {
        guard transfer.stage == .waitingForChunk else { return }
        if transfer.endSeen { return end(transfer) }
        if transfer.chunkIsWaiting { fetch(transfer) }
    }

    /// PropertyNotify on the selection window: an INCR owner's next chunk.
    func selectionWindowPropertyDidChange(_ e: xcb_property_notify_event_t) {
        guard e.atom == property, e.state == UInt8(XCB_PROPERTY_NEW_VALUE.rawValue),
            let head = conversions.first, head.isIncremental || head.stage == .fetching
        else { return }
        switch head.stage {
        case .waitingForChunk where !head.hasPendingBytes:
            fetch(head)
        case .fetching, .waitingForChunk:
            head.chunkIsWaiting = true
        default:
            break
        }
    }

    // MARK: Wayland → X

    /// Set while a seat selection change waits to be written (one at most: the latest source
    /// is taken when it is).
    private(set) var seatChangeIsPending = false

    /// The seat's selection changed: a Wayland source is offered to X clients (the XWM takes the
    /// X selection once its targets are interned); none gives the X selection up. Written in a
    /// turn of the XWM (`XWM.writeWhenWritable`); any number of changes before it is one, the
    /// latest.
    func selectionDidChange(_ selection: Selection) {
        if let current = selection.source, current === source { return }
        // Intern replies of an older source are dropped from now on.
        generation += 1
        guard !seatChangeIsPending else { return }
        seatChangeIsPending = true
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            seatChangeIsPending = false
            takeSeatSelection()
        }
        wm.flushAndReadSoon()
    }

    /// Offers the seat's selection source of now to X (a turn of the XWM).
    private func takeSeatSelection() {
        guard let selection else { return }
        take(selection.source)
    }

    /// Called once the X selection is taken for the Wayland source, with its X targets (XDND).
    private var didTake: (([xcb_atom_t]) -> Void)?

    /// XDND: offers a drag's `source` to X clients through XdndSelection (nil: none any more);
    /// `done` gets the X targets offered (the order of the source's MIME types, the text
    /// aliases after them) once the XWM owns the selection. A later offer replaces it; `done`
    /// of a replaced offer is never called.
    func offerDragSource(_ source: SelectionSource?, done: (([xcb_atom_t]) -> Void)? = nil) {
        if let source, source === waylandSource, ownsXSelection {
            done?(offeredOrder)
            return
        }
        didTake = done
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            take(source)
        }
        wm.flushAndReadSoon()
    }

    /// Offers `current` to X (a turn of the XWM).
    private func take(_ current: SelectionSource?) {
        if let current, current === source { return }
        generation += 1
        waylandSource = current
        offered = [:]
        offeredOrder = []
        guard let current, current.isLive else {
            didTake = nil
            if ownsXSelection {
                xcb_set_selection_owner(connection, 0, atom, UInt32(XCB_CURRENT_TIME))
                ownsXSelection = false
                wm.flushAndReadSoon()
            }
            return
        }
        let types = Array(current.mimeTypes.prefix(ClientBudget.maxMimeTypesPerSource))
        // A Wayland client offering ever new names would grow Xwayland's atom table for good:
        // past `XWM.maxCreatedAtoms` names, a type is offered to X only if its atom exists (an X
        // client that asks for it by name has made it).
        let cookies = types.map { type in
            let creates = wm.createdAtomNames.contains(type) || wm.createdAtomNames.count < XWM.maxCreatedAtoms
            if creates { wm.createdAtomNames.insert(type) }
            return type.withCString {
                xcb_intern_atom(connection, creates ? 0 : 1, UInt16(min(type.utf8.count, Int(UInt16.max))), $0)
            }
        }
        let generation = generation
        var pending = types.count
        var interned: [xcb_atom_t] = Array(repeating: 0, count: types.count)
        let done: () -> Void = { [weak self] in
            guard let self, self.generation == generation else { return }
            self.takeXSelection(types: types, atoms: interned)
        }
        guard pending > 0 else { return done() }
        for (index, cookie) in cookies.enumerated() {
            wm.replies.expect(cookie.sequence) { reply in
                if let reply {
                    interned[index] = reply.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom
                }
                pending -= 1
                if pending == 0 { done() }
            }
        }
        wm.flushAndReadSoon()
    }

    private func takeXSelection(types: [String], atoms: [xcb_atom_t]) {
        let names = wm.atoms
        func add(_ atom: xcb_atom_t, _ type: String) {
            guard atom != 0, offered[atom] == nil else { return }
            offered[atom] = type
            offeredOrder.append(atom)
        }
        for (type, atom) in zip(types, atoms) {
            if type == "text/plain;charset=utf-8" {
                add(names["UTF8_STRING"], type)
            }
            add(atom, type)
        }
        // Plain-text aliases X clients ask for, from the best text type offered.
        if let text = types.first(where: { $0 == "text/plain;charset=utf-8" }) ?? types.first(where: {
            $0 == "text/plain"
        })
            ?? types.first(where: { $0 == "UTF8_STRING" || $0 == "STRING" || $0 == "TEXT" })
        {
            add(names["UTF8_STRING"], text)
            add(names["TEXT"], text)
            add(XCB_ATOM_STRING.rawValue, text)
        }
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            xcb_set_selection_owner(connection, window, atom, UInt32(XCB_CURRENT_TIME))
            // XdndSelection's owner changes are not watched (XFixes): the XWM owns it now.
            if selection == nil { ownsXSelection = true }
            if let done = didTake {
                didTake = nil
                done(offeredOrder)
            }
        }
        wm.flushAndReadSoon()
    }

    /// A SelectionRequest of an X client while the XWM owns the selection.
    func selectionRequest(_ e: xcb_selection_request_event_t) {
        let property = e.property == 0 ? e.target : e.property
        guard ownsXSelection, waylandSource?.isLive == true else { return refuse(e) }
        if writeInlineTarget(e.target, requestor: e.requestor, property: property) {
            return answer(e, property: property)
        }
        if e.target == wm.atoms["MULTIPLE"] { return convertMultiple(e) }
        let transfer = startTransfer(
            requestor: e.requestor, property: property, target: e.target, time: e.time
        ) { [unowned self] in
            sendNotify(
                requestor: e.requestor, selection: e.selection, target: e.target, property: property, time: e.time)
        }
        if transfer == nil { refuse(e) }
    }

    /// Writes TARGETS or TIMESTAMP into `property` of `requestor` (false: `target` is neither).
    func writeInlineTarget(_ target: xcb_atom_t, requestor: xcb_window_t, property: xcb_atom_t) -> Bool {
        let names = wm.atoms
        if target == names["TARGETS"] {
            var list: [UInt32] = [names["TARGETS"], names["TIMESTAMP"], names["MULTIPLE"]] + offeredOrder
            xcb_change_property(
                connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), requestor, property,
                XCB_ATOM_ATOM.rawValue, 32, UInt32(list.count), &list)
            return true
        }
        if target == names["TIMESTAMP"] {
            var time = ownTimestamp
            xcb_change_property(
                connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), requestor, property,
                XCB_ATOM_INTEGER.rawValue, 32, 1, &time)
            return true
        }
        return false
    }

    /// Starts answering `target` into `property` of `requestor` from the Wayland source: its data
    /// comes through a pipe (`WaylandToXTransfer`). `ready` is called once the requestor may read:
    /// the whole property written, or INCR announced. False when the target is not offered or
    /// `maxRequests` are running (nothing started: nil).
    func startTransfer(
        requestor: xcb_window_t, property: xcb_atom_t, target: xcb_atom_t, time: xcb_timestamp_t,
        ready: @escaping () -> Void
    ) -> WaylandToXTransfer? {
        let names = wm.atoms
        guard ownsXSelection, let source = waylandSource, source.isLive, let type = offered[target],
            requests.count < Self.maxRequests
        else { return nil }
        var fds: [Int32] = [-1, -1]
        guard strata_pipe_cloexec(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        source.send(mimeType: type, fd: fds[1])
        Descriptors.close(fds[1])
        // Property changes (the requestor's deletes, for INCR) and the window's destruction.
        let managed = wm.window(requestor) != nil
        if !managed {
            var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
            xcb_change_window_attributes(connection, requestor, XCB_CW_EVENT_MASK.rawValue, &mask)
        }
        let transfer = WaylandToXTransfer(
            requestor: requestor, property: property, target: target, time: time,
            fd: fds[0], selectedEvents: !managed, chunkSize: chunkSize)
        // TEXT asks the owner to choose the encoding: the data is UTF-8, so its type says that.
        let replyType = target == names["TEXT"] ? names["UTF8_STRING"] : target
        // The source's data comes outside the XWM's turns (its pipe is readable): written in one.
        transfer.writeProperty = { [unowned self] _, format, bytes in
            wm.writeWhenWritable { [weak self] in
                guard let self else { return }
                xcb_change_property(
                    connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), requestor, property, replyType,
                    format, UInt32(bytes.count), bytes)
            }
            wm.flushAndReadSoon()
        }
        transfer.announceIncremental = { [unowned self] size in
            wm.writeWhenWritable { [weak self] in
                guard let self else { return }
                var value = size
                xcb_change_property(
                    connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), requestor, property,
                    names["INCR"], 32, 1, &value)
            }
        }
        transfer.notify = ready
        transfer.didFinish = { [weak self, unowned transfer] in
            guard let self else { return }
            requests.removeAll { $0 === transfer }
            if transfer.selectedEvents, !requests.contains(where: { $0.requestor == transfer.requestor }) {
                wm.writeWhenWritable { [weak self] in
                    guard let self else { return }
                    var none: UInt32 = 0
                    xcb_change_window_attributes(connection, requestor, XCB_CW_EVENT_MASK.rawValue, &none)
                }
            }
            wm.flushAndReadSoon()
        }
        requests.append(transfer)
        transfer.start(display: wm.compositor.display)
        if !managed {
            // The window may have gone before the events were selected (its client died right
            // after asking): a request after the selection tells, its error meaning gone.
            let cookie = xcb_get_window_attributes(connection, requestor)
            wm.replies.expect(cookie.sequence) { [weak transfer] reply in
                if reply == nil { transfer?.fail() }
            }
        }
        return transfer
    }

    private func answer(_ e: xcb_selection_request_event_t, property: xcb_atom_t) {
        sendNotify(requestor: e.requestor, selection: e.selection, target: e.target, property: property, time: e.time)
    }

    func refuse(_ e: xcb_selection_request_event_t) {
        sendNotify(requestor: e.requestor, selection: e.selection, target: e.target, property: 0, time: e.time)
    }

    func sendNotify(
        requestor: xcb_window_t, selection: xcb_atom_t, target: xcb_atom_t, property: xcb_atom_t,
        time: xcb_timestamp_t
    ) {
        var event = xcb_selection_notify_event_t()
        event.response_type = UInt8(XCB_SELECTION_NOTIFY)
        event.time = time
        event.requestor = requestor
        event.selection = selection
        event.target = target
        event.property = property
        let notification = event
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            var event = notification
            withUnsafeBytes(of: &event) { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                    xcb_send_event(self.connection, 0, requestor, XCB_EVENT_MASK_NO_EVENT.rawValue, chars.baseAddress)
                }
            }
        }
        wm.flushAndReadSoon()
    }

    /// A PropertyNotify of another window: an INCR requestor deleted what it read.
    func requestorPropertyDidChange(_ e: xcb_property_notify_event_t) {
        guard e.state == UInt8(XCB_PROPERTY_DELETE.rawValue) else { return }
        for transfer in requests where transfer.requestor == e.window && transfer.property == e.atom {
            transfer.requestorDidDelete()
        }
    }

    /// A window was destroyed: the requests it made end (its client died or gave up).
    func windowDidDestroy(_ window: xcb_window_t) {
        for transfer in requests where transfer.requestor == window { transfer.fail() }
    }

    /// The XWM is going: every transfer ends, the Wayland side forgets the X source.
    func shutdown() {
        generation += 1
        abortConversions()
        for transfer in draining { transfer.finish() }
        draining.removeAll()
        for transfer in requests { transfer.fail() }
        requests.removeAll()
        xOwner = 0
        dropSource()
        didTake = nil
        selection?.watcherDidDisappear(self)
    }
}
