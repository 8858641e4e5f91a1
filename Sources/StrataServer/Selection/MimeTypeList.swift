import CStrataServerGlue
import Glibc

/// The MIME types a selection source offers (wl_data_source, the primary selection sources), in
/// the order offered, each once: a duplicate is found in O(1) (a set beside the list). Bounded by
/// the client's budget: at most `ClientBudget.maxMimeTypesPerSource` types of at most
/// `maxMimeTypeLength` bytes, `maxMimeBytesPerSource` bytes of events when forwarded, and the
/// client's live sources together `maxMimeBytesPerClient`; past any of them, no_memory.
final class MimeTypeList {
    private(set) var types: [String] = []
    private var known: Set<String> = []
    /// Bytes of offer events the types make (`cost(ofLength:)` each).
    private(set) var bytes = 0
    private let charge: BudgetCharge?

    init(client: OpaquePointer) {
        charge = BudgetCharge(client: client, kind: STRATA_CHARGE_MIME_BYTES)
    }

    /// The bytes of one offer event carrying a type of `length` bytes: header (8), string length
    /// (4), the string with its NUL, padded to 4: at most length + 16.
    static func cost(ofLength length: Int) -> Int { length + 16 }

    /// offer(mime_type) from `client`.
    func add(_ mimeType: UnsafePointer<CChar>, client: OpaquePointer) throws(ProtocolError) {
        let length = strnlen(mimeType, ClientBudget.maxMimeTypeLength + 1)
        guard length <= ClientBudget.maxMimeTypeLength else {
            throw .noMemory("a MIME type longer than \(ClientBudget.maxMimeTypeLength) bytes", client: client)
        }
        let type = String(cString: mimeType)
        guard !known.contains(type) else { return }
        guard types.count < ClientBudget.maxMimeTypesPerSource else {
            throw .noMemory("more than \(ClientBudget.maxMimeTypesPerSource) MIME types on one source", client: client)
        }
        let cost = Self.cost(ofLength: length)
        guard bytes + cost <= ClientBudget.maxMimeBytesPerSource else {
            throw .noMemory(
                "MIME types of one source longer than \(ClientBudget.maxMimeBytesPerSource) bytes in all",
                client: client)
        }
        if let charge, !charge.add(UInt64(cost), limit: ClientBudget.maxMimeBytesPerClient) {
            throw .noMemory(
                "MIME types of the client's sources longer than \(ClientBudget.maxMimeBytesPerClient) bytes in all",
                client: client)
        }
        bytes += cost
        known.insert(type)
        types.append(type)
    }
}
