import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataServer

/// One selection (the clipboard through the parent's wl_data_device, or the primary selection
/// through its zwp_primary_selection_device_v1) passed between the parent session and Strata.
///
/// - **Parent → Strata.** The parent sends its selection to a client while that client has the
///   keyboard focus (here: while one of Strata's screens is the parent's key window). Each
///   `selection(offer)` becomes a `CompositorSelectionSource` of Strata's seat; a Strata client's
///   `receive` is forwarded as the parent offer's `receive` with the client's own pipe, so the
///   data flows from the parent's owner to Strata's client without passing through Strata.
/// - **Strata → parent.** A `SelectionObserver` hears every change of Strata's selection; a
///   client's source becomes a parent source offering the same types (and a marker type, so the
///   parent's echo of it is recognised and not taken back), set with the parent seat's latest
///   input serial. The parent's `send(type, fd)` is handed to Strata's source with the parent's
///   pipe. The parent may refuse (Strata's window does not have its focus): it cancels the
///   source, and nothing else happens.
///
/// Nothing here reads or writes the data: both directions pass file descriptors, so nothing
/// can block the loop or grow with what is copied.
final class ParentSelection {
    unowned let backend: WaylandBackend
    let kind: Seat.SelectionKind
    private let manager: OpaquePointer
    private var device: OpaquePointer?
    /// Offers announced (data_offer) and not yet the selection, with their types.
    private var announced: [OpaquePointer: [String]] = [:]
    /// The parent's current selection offer, and what Strata's seat got from it.
    private var offer: OpaquePointer?
    private var inbound: CompositorSelectionSource?
    /// The parent source made for Strata's selection, and that selection.
    private var parentSource: OpaquePointer?
    private var outbound: SelectionObserver.Contents?
    private var observer: SelectionObserver?
    /// Marks the parent sources Strata made: their offers, echoed back, are not taken in.
    let marker: String
    /// Offers the parent may announce before one becomes the selection (drag offers are
    /// destroyed at once); beyond, one of them is dropped.
    static let maximumAnnounced = 8

    init?(
        backend: WaylandBackend, kind: Seat.SelectionKind, manager: OpaquePointer, seat: OpaquePointer, marker: String
    ) {
        self.backend = backend
        self.kind = kind
        self.manager = manager
        self.marker = marker
        switch kind {
        case .clipboard:
            guard let device = wl_data_device_manager_get_data_device(manager, seat) else { return nil }
            self.device = device
            wl_data_device_add_listener(device, &Self.dataDeviceListener, me)
        case .primary:
            guard let device = zwp_primary_selection_device_manager_v1_get_device(manager, seat) else { return nil }
            self.device = device
            zwp_primary_selection_device_v1_add_listener(device, &Self.primaryDeviceListener, me)
        }
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Starts handing Strata's selection to the parent.
    func start(seat: Seat) {
        observer = seat.observeSelection(kind) { [unowned self] contents in
            self.strataSelectionDidChange(contents)
        }
    }

    /// Destroys every proxy (Strata stops, or the parent's seat went). Safe to call twice.
    func destroy() {
        observer?.cancel()
        observer = nil
        if let inbound, let seat = backend.seat { seat.clearCompositorSelection(inbound, kind) }
        inbound = nil
        for proxy in announced.keys { destroyOffer(proxy) }
        announced.removeAll()
        if let offer { destroyOffer(offer) }
        offer = nil
        destroyParentSource()
        if let device {
            switch kind {
            case .clipboard:
                if wl_proxy_get_version(device) >= 2 {
                    wl_data_device_release(device)
                } else {
                    wl_data_device_destroy(device)
                }
            case .primary:
                zwp_primary_selection_device_v1_destroy(device)
            }
        }
        device = nil
    }

    // MARK: Parent → Strata

    private func offerAnnounced(_ proxy: OpaquePointer) {
        if announced.count >= Self.maximumAnnounced, let dropped = announced.keys.first {
            announced[dropped] = nil
            destroyOffer(dropped)
        }
        announced[proxy] = []
        switch kind {
        case .clipboard: wl_data_offer_add_listener(proxy, &Self.dataOfferListener, me)
        case .primary: zwp_primary_selection_offer_v1_add_listener(proxy, &Self.primaryOfferListener, me)
        }
    }

    private func offerHasType(_ proxy: OpaquePointer, _ type: String) {
        guard var types = announced[proxy], types.count < ClientBudget.maxMimeTypesPerSource + 1 else { return }
        types.append(type)
        announced[proxy] = types
    }

    /// A drag entered a screen: Strata takes no drags from the parent.
    private func dragOffer(_ proxy: OpaquePointer?) {
        guard let proxy, announced.removeValue(forKey: proxy) != nil else { return }
        destroyOffer(proxy)
    }

    private func parentSelectionDidChange(_ proxy: OpaquePointer?) {
        let types = proxy.flatMap { announced.removeValue(forKey: $0) }
        // Every other announced offer is stale now.
        for stale in announced.keys { destroyOffer(stale) }
        announced.removeAll()
        if let old = offer, old != proxy { destroyOffer(old) }
        offer = proxy
        guard let seat = backend.seat else { return }
        let previous = inbound
        inbound = nil
        guard let proxy, let types, !types.contains(marker) else {
            // No selection in the parent, or Strata's own coming back: a parent selection that
            // Strata still holds is withdrawn (Strata's own is no longer that one anyway).
            if let previous { seat.clearCompositorSelection(previous, kind) }
            return
        }
        let source = CompositorSelectionSource(mimeTypes: types) { [weak self] type, fd in
            guard let self, self.offer == proxy else { return }
            switch self.kind {
            case .clipboard: wl_data_offer_receive(proxy, type, fd)
            case .primary: zwp_primary_selection_offer_v1_receive(proxy, type, fd)
            }
            self.backend.flush()
        }
        inbound = source
        seat.setCompositorSelection(source, kind)
    }

    private func destroyOffer(_ proxy: OpaquePointer) {
        switch kind {
        case .clipboard: wl_data_offer_destroy(proxy)
        case .primary: zwp_primary_selection_offer_v1_destroy(proxy)
        }
    }

    // MARK: Strata → parent

    private func strataSelectionDidChange(_ contents: SelectionObserver.Contents?) {
        guard let contents else {
            // Strata's selection went (its owner died): so does the parent source made for it.
            if outbound != nil {
                destroyParentSource()
                backend.flush()
            }
            return
        }
        // The parent's own selection, given to Strata: not handed back.
        if let own = contents.compositorSource, own === inbound { return }
        if contents.isSameSource(as: outbound), parentSource != nil { return }
        destroyParentSource()
        guard let device else { return }
        outbound = contents
        let serial = backend.parentInputSerial
        switch kind {
        case .clipboard:
            guard let source = wl_data_device_manager_create_data_source(manager) else { return }
            wl_data_source_add_listener(source, &Self.dataSourceListener, me)
            for type in contents.mimeTypes { wl_data_source_offer(source, type) }
            wl_data_source_offer(source, marker)
            wl_data_device_set_selection(device, source, serial)
            parentSource = source
        case .primary:
            guard let source = zwp_primary_selection_device_manager_v1_create_source(manager) else { return }
            zwp_primary_selection_source_v1_add_listener(source, &Self.primarySourceListener, me)
            for type in contents.mimeTypes { zwp_primary_selection_source_v1_offer(source, type) }
            zwp_primary_selection_source_v1_offer(source, marker)
            zwp_primary_selection_device_v1_set_selection(device, source, serial)
            parentSource = source
        }
        backend.flush()
    }

    /// The parent asks for Strata's selection in `type`, to be written into `fd`.
    private func parentWantsData(_ source: OpaquePointer?, type: String, fd: Int32) {
        defer { close(fd) }
        guard let source, source == parentSource, type != marker, let outbound else { return }
        outbound.receive(type, fd: fd)
    }

    private func parentCancelled(_ source: OpaquePointer?) {
        guard let source, source == parentSource else { return }
        destroyParentSource()
    }

    private func destroyParentSource() {
        outbound = nil
        guard let source = parentSource else { return }
        parentSource = nil
        switch kind {
        case .clipboard: wl_data_source_destroy(source)
        case .primary: zwp_primary_selection_source_v1_destroy(source)
        }
    }

    /// Whether Strata's selection is on offer in the parent (tests).
    var offersToParent: Bool { parentSource != nil }

    // MARK: Listeners (user data: the ParentSelection, alive while its proxies are)

    private static func from(_ data: UnsafeMutableRawPointer?) -> ParentSelection? {
        data.map { Unmanaged<ParentSelection>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var dataDeviceListener = wl_data_device_listener(
        data_offer: { data, _, offer in
            guard let offer else { return }
            from(data)?.offerAnnounced(offer)
        },
        enter: { data, _, _, _, _, _, offer in from(data)?.dragOffer(offer) },
        leave: { _, _ in },
        motion: { _, _, _, _, _ in },
        drop: { _, _ in },
        selection: { data, _, offer in from(data)?.parentSelectionDidChange(offer) })

    private static var dataOfferListener = wl_data_offer_listener(
        offer: { data, offer, type in
            guard let offer, let type else { return }
            from(data)?.offerHasType(offer, String(cString: type))
        },
        source_actions: { _, _, _ in },
        action: { _, _, _ in })

    private static var dataSourceListener = wl_data_source_listener(
        target: { _, _, _ in },
        send: { data, source, type, fd in
            guard let selection = from(data), let type else { _ = close(fd); return }
            selection.parentWantsData(source, type: String(cString: type), fd: fd)
        },
        cancelled: { data, source in from(data)?.parentCancelled(source) },
        dnd_drop_performed: { _, _ in },
        dnd_finished: { _, _ in },
        action: { _, _, _ in })

    private static var primaryDeviceListener = zwp_primary_selection_device_v1_listener(
        data_offer: { data, _, offer in
            guard let offer else { return }
            from(data)?.offerAnnounced(offer)
        },
        selection: { data, _, offer in from(data)?.parentSelectionDidChange(offer) })

    private static var primaryOfferListener = zwp_primary_selection_offer_v1_listener(
        offer: { data, offer, type in
            guard let offer, let type else { return }
            from(data)?.offerHasType(offer, String(cString: type))
        })

    private static var primarySourceListener = zwp_primary_selection_source_v1_listener(
        send: { data, source, type, fd in
            guard let selection = from(data), let type else { _ = close(fd); return }
            selection.parentWantsData(source, type: String(cString: type), fd: fd)
        },
        cancelled: { data, source in from(data)?.parentCancelled(source) })
}
