/// What identifies a tablet tool and what it can do: its type, its hardware serial (unique per
/// physical tool; a tool is known by type and serial, as libinput does) and its axes. The seat
/// makes the tool at its first use; later descriptions with the same type and serial name that
/// tool (their capabilities are those of the first).
public struct TabletToolDescription: Sendable, Hashable {
    public var type: TabletToolType
    public var serial: UInt64
    public var capabilities: [TabletToolCapability]

    public init(type: TabletToolType = .pen, serial: UInt64 = 1, capabilities: [TabletToolCapability]? = nil) {
        self.type = type
        self.serial = serial
        self.capabilities = capabilities ?? type.defaultCapabilities
    }
}
