/// Why a nested backend could not start, or stopped: what was being done (`context`, e.g.
/// "--backend wayland") and what went wrong, written for the person who ran `strata`.
public struct NestedBackendError: Error, CustomStringConvertible, Equatable {
    public enum Reason: Equatable, Sendable {
        /// `--backend` named no known backend.
        case unknownBackend
        /// The environment variable the backend connects through is not set.
        case notInSession
        /// The parent session refused or does not exist.
        case cannotConnect
        /// The parent lacks something the backend needs (a global, a visual, an extension).
        case parentLacks
        /// The parent did not answer in time.
        case timeout
        /// The connection to the parent broke.
        case connectionLost
    }

    public let context: String
    public let reason: Reason
    public let message: String

    public init(context: String, reason: Reason, message: String) {
        self.context = context
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(context): \(message)" }
}
