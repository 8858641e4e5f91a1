/// Facts about the control protocol that the server and the CLI share (docs/control.md).
///
/// The protocol is line-delimited JSON over a Unix stream socket: each request is one line,
/// `{"id": 1, "command": "windows", …arguments}`, answered by one line with the same `id`:
/// `{"id": 1, "ok": true, …}` or `{"id": 1, "ok": false, "error": {"code": …, "message": …}}`.
/// A connection that asked for `events` also receives event lines: the notification's flat JSON
/// with `"event"` (its name) and `"sequence"`, and never `"ok"`.
public enum ControlProtocol {
    /// Bumped when a command, argument or reply field changes incompatibly. New commands and
    /// new reply fields do not bump it.
    public static let version = 1

    /// The environment variable holding the socket's path (set for clients Strata starts).
    public static let environmentVariable = "STRATA_SOCKET"

    /// The socket's file name for a Wayland socket name: `strata-wayland-1.sock`.
    public static func socketFileName(waylandSocket: String) -> String {
        "strata-\(waylandSocket).sock"
    }

    /// The longest request line accepted, newline excluded; longer lines get a `line_too_long`
    /// error and are discarded up to their newline.
    public static let maximumLineLength = 64 * 1024

    /// How many past events the server keeps for `events --since`.
    public static let eventHistory = 1024

    /// Every command's name, in the order docs/control.md lists them (`hello` reports them):
    /// the rows of `ControlCommand.all`.
    public static let commands = ControlCommand.all.map(\.name)
}

/// The `code` of an error reply. Clients should branch on the code, not the message.
public enum ControlErrorCode: String, Codable, Sendable, CaseIterable {
    /// The line is not JSON, or not a JSON object.
    case badJSON = "bad_json"
    /// The object has no usable `command` or a malformed `id`.
    case badRequest = "bad_request"
    case unknownCommand = "unknown_command"
    case missingArgument = "missing_argument"
    /// An argument has the wrong type or an impossible value.
    case invalidArgument = "invalid_argument"
    case unknownWindow = "unknown_window"
    case unknownScreen = "unknown_screen"
    /// A window name (an app id, `title:`, `pid:`) names more than one open window; the
    /// message lists them.
    case ambiguousWindow = "ambiguous_window"
    /// The screen does not offer that mode.
    case modeNotAvailable = "mode_not_available"
    /// The line was longer than `ControlProtocol.maximumLineLength`.
    case lineTooLong = "line_too_long"
    /// Not possible with this backend or build (e.g. adding screens to a nested session).
    case unsupported = "unsupported"
    /// The command was valid but failed (a file could not be written, a program not started).
    case failed = "failed"
    /// `events --since` asked for events older than the server keeps.
    case eventsLost = "events_lost"
}

/// An error reply's payload.
public struct ControlError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    public var code: ControlErrorCode
    public var message: String

    public init(_ code: ControlErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code.rawValue))" }
}
