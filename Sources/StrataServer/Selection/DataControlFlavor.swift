import CStrataServerGlue
import CWaylandServer

/// The two protocols of data control: wlroots' zwlr_data_control_manager_v1 (v2: with the
/// primary selection) and its standard successor ext_data_control_v1. Their messages are the
/// same, message for message; only the interface names differ (and wlr's v1 lacks the primary
/// selection).
enum DataControlFlavor {
    case wlr
    case ext

    var managerInterface: UnsafePointer<wl_interface> {
        switch self {
        case .wlr: return strata_zwlr_data_control_manager_v1_interface()
        case .ext: return strata_ext_data_control_manager_v1_interface()
        }
    }

    var deviceInterface: UnsafePointer<wl_interface> {
        switch self {
        case .wlr: return strata_zwlr_data_control_device_v1_interface()
        case .ext: return strata_ext_data_control_device_v1_interface()
        }
    }

    var sourceInterface: UnsafePointer<wl_interface> {
        switch self {
        case .wlr: return strata_zwlr_data_control_source_v1_interface()
        case .ext: return strata_ext_data_control_source_v1_interface()
        }
    }

    var offerInterface: UnsafePointer<wl_interface> {
        switch self {
        case .wlr: return strata_zwlr_data_control_offer_v1_interface()
        case .ext: return strata_ext_data_control_offer_v1_interface()
        }
    }

    /// The version each global is offered at.
    var managerVersion: UInt32 { self == .wlr ? 2 : 1 }

    /// Whether a device of `version` speaks of the primary selection.
    func hasPrimarySelection(version: UInt32) -> Bool { self == .ext || version >= 2 }

    /// The device's used_source error and the source's invalid_offer error (the same numbers).
    var usedSourceError: UInt32 {
        self == .wlr
            ? ZWLR_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue
            : EXT_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue
    }

    var invalidOfferError: UInt32 {
        self == .wlr
            ? ZWLR_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER.rawValue
            : EXT_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER.rawValue
    }

    // MARK: Events

    func sendDataOffer(device: OpaquePointer, offer: OpaquePointer) {
        switch self {
        case .wlr: zwlr_data_control_device_v1_send_data_offer(device, offer)
        case .ext: ext_data_control_device_v1_send_data_offer(device, offer)
        }
    }

    func sendSelection(device: OpaquePointer, offer: OpaquePointer?) {
        switch self {
        case .wlr: zwlr_data_control_device_v1_send_selection(device, offer)
        case .ext: ext_data_control_device_v1_send_selection(device, offer)
        }
    }

    func sendPrimarySelection(device: OpaquePointer, offer: OpaquePointer?) {
        switch self {
        case .wlr: zwlr_data_control_device_v1_send_primary_selection(device, offer)
        case .ext: ext_data_control_device_v1_send_primary_selection(device, offer)
        }
    }

    func sendOffer(offer: OpaquePointer, mimeType: String) {
        switch self {
        case .wlr: zwlr_data_control_offer_v1_send_offer(offer, mimeType)
        case .ext: ext_data_control_offer_v1_send_offer(offer, mimeType)
        }
    }

    func sendSend(source: OpaquePointer, mimeType: String, fd: Int32) {
        switch self {
        case .wlr: zwlr_data_control_source_v1_send_send(source, mimeType, fd)
        case .ext: ext_data_control_source_v1_send_send(source, mimeType, fd)
        }
    }

    func sendCancelled(source: OpaquePointer) {
        switch self {
        case .wlr: zwlr_data_control_source_v1_send_cancelled(source)
        case .ext: ext_data_control_source_v1_send_cancelled(source)
        }
    }
}
