/// The physical kind of a tablet tool (zwp_tablet_tool_v2.type; the values are evdev's BTN_TOOL_*).
public enum TabletToolType: UInt32, Sendable, CaseIterable {
    case pen = 0x140, eraser, brush, pencil, airbrush, finger, mouse, lens

    public var name: String {
        switch self {
        case .pen: "pen"
        case .eraser: "eraser"
        case .brush: "brush"
        case .pencil: "pencil"
        case .airbrush: "airbrush"
        case .finger: "finger"
        case .mouse: "mouse"
        case .lens: "lens"
        }
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// The axes such a tool has by default, as libinput reports common Wacom tools: styli sense
    /// pressure, distance and tilt (an airbrush also has a finger wheel, its slider); a puck
    /// (mouse, lens) has distance, rotation and a wheel.
    public var defaultCapabilities: [TabletToolCapability] {
        switch self {
        case .pen, .eraser, .brush, .pencil: [.pressure, .distance, .tilt]
        case .airbrush: [.pressure, .distance, .tilt, .slider]
        case .finger: [.pressure]
        case .mouse, .lens: [.distance, .rotation, .wheel]
        }
    }
}

/// An axis a tablet tool has (zwp_tablet_tool_v2.capability).
public enum TabletToolCapability: UInt32, Sendable, CaseIterable {
    case tilt = 1, pressure, distance, rotation, slider, wheel

    public var name: String {
        switch self {
        case .tilt: "tilt"
        case .pressure: "pressure"
        case .distance: "distance"
        case .rotation: "rotation"
        case .slider: "slider"
        case .wheel: "wheel"
        }
    }
}
