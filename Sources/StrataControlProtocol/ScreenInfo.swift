import StrataModel

/// One screen as `screens` reports it, in the model's order (the main screen first).
public struct ScreenInfo: Codable, Sendable, Equatable {
    public var id: UInt64
    public var name: String
    /// Every available mode as `WIDTHxHEIGHT@HZ` (`1280x720@60`).
    public var modes: [String]
    public var current: String?
    public var preferred: String?
    /// Physical pixels per logical pixel (1 ... 8, in steps of 1/120).
    public var scale: Double
    /// `normal`, `90`, `180`, `270`, `flipped`, `flipped-90`, … (wlr-randr's names).
    public var transform: String
    public var brightness: Double
    /// Whether the screen shows a copy of the main screen now (UIKit's rule: a secondary screen
    /// without visible windows, with mirroring allowed).
    public var mirroring: Bool
    /// Whether mirroring is allowed (`screen mirror S on|off`).
    public var mirrorsWhenEmpty: Bool
    public var main: Bool
    /// The screen's rectangle in the global layout, in logical pixels.
    public var bounds: Rect
    /// How much of the picture the display crops, in percent of each side's length.
    public var overscan: Double
    /// `scale`, `inset` or `none` (`Screen.overscanCompensation`).
    public var overscanCompensation: String

    enum CodingKeys: String, CodingKey {
        case id, name, modes, current, preferred, scale, transform, brightness, mirroring
        case mirrorsWhenEmpty = "mirrors_when_empty", main, bounds, overscan
        case overscanCompensation = "overscan_compensation"
    }

    public init(
        id: UInt64, name: String, modes: [String], current: String?, preferred: String?, scale: Double,
        transform: String, brightness: Double, mirroring: Bool, mirrorsWhenEmpty: Bool, main: Bool,
        bounds: Rect, overscan: Double = 0, overscanCompensation: String = "scale"
    ) {
        self.id = id
        self.name = name
        self.modes = modes
        self.current = current
        self.preferred = preferred
        self.scale = scale
        self.transform = transform
        self.brightness = brightness
        self.mirroring = mirroring
        self.mirrorsWhenEmpty = mirrorsWhenEmpty
        self.main = main
        self.bounds = bounds
        self.overscan = overscan
        self.overscanCompensation = overscanCompensation
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        modes = try c.decode([String].self, forKey: .modes)
        current = try c.decodeIfPresent(String.self, forKey: .current)
        preferred = try c.decodeIfPresent(String.self, forKey: .preferred)
        scale = try c.decode(Double.self, forKey: .scale)
        transform = try c.decode(String.self, forKey: .transform)
        brightness = try c.decode(Double.self, forKey: .brightness)
        mirroring = try c.decode(Bool.self, forKey: .mirroring)
        mirrorsWhenEmpty = try c.decode(Bool.self, forKey: .mirrorsWhenEmpty)
        main = try c.decode(Bool.self, forKey: .main)
        bounds = try c.decode(Rect.self, forKey: .bounds)
        // Traces recorded before overscan existed have neither.
        overscan = try c.decodeIfPresent(Double.self, forKey: .overscan) ?? 0
        overscanCompensation = try c.decodeIfPresent(String.self, forKey: .overscanCompensation) ?? "scale"
    }

    public init(_ screen: Screen) {
        self.init(
            id: screen.id.rawValue, name: screen.name, modes: screen.availableModes.map(ModeSpec.text),
            current: screen.currentMode.map(ModeSpec.text), preferred: screen.preferredMode.map(ModeSpec.text),
            scale: screen.scale, transform: screen.transform.rawValue, brightness: screen.brightness,
            mirroring: screen.isMirroring, mirrorsWhenEmpty: screen.mirrorsWhenEmpty, main: screen.isMain,
            bounds: screen.bounds, overscan: screen.overscan,
            overscanCompensation: screen.overscanCompensation.rawValue)
    }
}

/// `WIDTHxHEIGHT[@HZ]`, the way modes are written on the command line and in replies.
public struct ModeSpec: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// In mHz; nil when not given (any refresh matches).
    public var refreshMilliHz: Int?

    public static let limit = 16384
    public static let requirement =
        "a mode is WIDTHxHEIGHT or WIDTHxHEIGHT@HZ with sizes 1...\(limit), e.g. 1920x1080@60"

    public init(width: Int, height: Int, refreshMilliHz: Int? = nil) {
        self.width = width
        self.height = height
        self.refreshMilliHz = refreshMilliHz
    }

    /// Parses `1280x720`, `1280x720@60`, `1280x720@59.94`; nil when malformed or out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
            (1...ModeSpec.limit).contains(w), (1...ModeSpec.limit).contains(h)
        else { return nil }
        width = w
        height = h
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz.isFinite, hz >= 1, hz <= 1000 else { return nil }
            refreshMilliHz = Int((hz * 1000).rounded())
        }
    }

    /// The model's mode for this spec (60 Hz when no rate was given).
    public var mode: ScreenMode {
        ScreenMode(width: width, height: height, refreshMilliHz: refreshMilliHz ?? 60000)
    }

    /// Whether `mode` matches: same size and, when given, a rate within 0.5 Hz.
    public func matches(_ mode: ScreenMode) -> Bool {
        guard mode.size.width == width, mode.size.height == height else { return false }
        guard let refreshMilliHz else { return true }
        return abs(mode.refreshMilliHz - refreshMilliHz) <= 500
    }

    /// `1280x720@60`, `1280x720@59.94`.
    public static func text(_ mode: ScreenMode) -> String {
        let hz = Double(mode.refreshMilliHz) / 1000
        let rate = hz == hz.rounded() ? String(Int(hz)) : String((hz * 100).rounded() / 100)
        return "\(mode.size.width)x\(mode.size.height)@\(rate)"
    }
}
