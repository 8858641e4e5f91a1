import CStrataServerGlue
import CWaylandServer

/// The two protocols of the one primary selection: zwp_primary_selection_device_manager_v1 and
/// GTK 3's older gtk_primary_selection_device_manager. Their messages are the same, message for
/// message; only the interface names differ. A source set through either flavor is offered to the
/// devices of both, so middle-click paste works between an old GTK 3 client and a newer one.
enum PrimarySelectionFlavor {
    case zwp
    case gtk

    var managerInterface: UnsafePointer<wl_interface> {
        switch self {
        case .zwp: return strata_zwp_primary_selection_device_manager_v1_interface()
        case .gtk: return strata_gtk_primary_selection_device_manager_interface()
        }
    }

    var deviceInterface: UnsafePointer<wl_interface> {
        switch self {
        case .zwp: return strata_zwp_primary_selection_device_v1_interface()
        case .gtk: return strata_gtk_primary_selection_device_interface()
        }
    }

    var offerInterface: UnsafePointer<wl_interface> {
        switch self {
        case .zwp: return strata_zwp_primary_selection_offer_v1_interface()
        case .gtk: return strata_gtk_primary_selection_offer_interface()
        }
    }

    var sourceInterface: UnsafePointer<wl_interface> {
        switch self {
        case .zwp: return strata_zwp_primary_selection_source_v1_interface()
        case .gtk: return strata_gtk_primary_selection_source_interface()
        }
    }

    // MARK: Events

    func sendDataOffer(device: OpaquePointer, offer: OpaquePointer) {
        switch self {
        case .zwp: zwp_primary_selection_device_v1_send_data_offer(device, offer)
        case .gtk: gtk_primary_selection_device_send_data_offer(device, offer)
        }
    }

    func sendSelection(device: OpaquePointer, offer: OpaquePointer?) {
        switch self {
        case .zwp: zwp_primary_selection_device_v1_send_selection(device, offer)
        case .gtk: gtk_primary_selection_device_send_selection(device, offer)
        }
    }

    func sendOffer(offer: OpaquePointer, mimeType: String) {
        switch self {
        case .zwp: zwp_primary_selection_offer_v1_send_offer(offer, mimeType)
        case .gtk: gtk_primary_selection_offer_send_offer(offer, mimeType)
        }
    }

    func sendSend(source: OpaquePointer, mimeType: String, fd: Int32) {
        switch self {
        case .zwp: zwp_primary_selection_source_v1_send_send(source, mimeType, fd)
        case .gtk: gtk_primary_selection_source_send_send(source, mimeType, fd)
        }
    }

    func sendCancelled(source: OpaquePointer) {
        switch self {
        case .zwp: zwp_primary_selection_source_v1_send_cancelled(source)
        case .gtk: gtk_primary_selection_source_send_cancelled(source)
        }
    }
}
