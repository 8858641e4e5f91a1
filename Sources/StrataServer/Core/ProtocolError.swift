import CStrataServerGlue
import CWaylandServer

/// A protocol violation found by a request handler: posted to the client at the one conversion
/// point (`handle`), which disconnects it. `resource` is the object the error is raised on when
/// it is not the one whose request is being handled (e.g. xdg_wm_base for a role error).
public struct ProtocolError: Error, @unchecked Sendable, CustomStringConvertible {
    public var resource: OpaquePointer?
    public var code: UInt32
    public var message: String

    public init(on resource: OpaquePointer? = nil, code: UInt32, _ message: String) {
        self.resource = resource
        self.code = code
        self.message = message
    }

    /// wl_display.error invalid_method / implementation errors use these generic codes.
    public static func invalidMethod(_ message: String, on resource: OpaquePointer? = nil) -> ProtocolError {
        ProtocolError(on: resource, code: WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, message)
    }

    public var description: String { "protocol error \(code): \(message)" }
}
