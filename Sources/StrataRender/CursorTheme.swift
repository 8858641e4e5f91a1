import CXcursor
import FoundationEssentials
import Glibc

/// The system's Xcursor theme, read with libXcursor (theme files only, no X display): the
/// default cursor and the named cursors of wp_cursor_shape_v1.
///
/// The theme is `XCURSOR_THEME` (else "default", which Debian points at the chosen theme, else
/// "Adwaita"), the size `XCURSOR_SIZE` (else 24). Names are the CSS names cursor-shape uses
/// (`default`, `pointer`, `text`, …); themes that only have the X core names (`left_ptr`,
/// `hand2`, `xterm`, …) are found through the usual legacy aliases. When no theme has the
/// default arrow, a small arrow drawn in code is used and one line says so on stderr.
public final class CursorTheme {
    public let themeName: String?
    public let size: Int32
    private var cache: [String: CursorImage] = [:]
    private var missing: Set<String> = []
    private var loggedFallback = false
    /// The arrow drawn in code, once needed.
    private lazy var fallback: CursorImage? = CursorImage.builtInArrow()

    /// `environment`: where XCURSOR_THEME and XCURSOR_SIZE come from; nil, the process's (the two
    /// variables read with getenv: the whole environment as a dictionary costs a start about
    /// 0.4 M instructions for 40 variables).
    public init(name: String? = nil, size: Int32? = nil, environment: [String: String]? = nil) {
        func variable(_ key: String) -> String? {
            if let environment { return environment[key] }
            return getenv(key).map { String(cString: $0) }
        }
        let envName = variable("XCURSOR_THEME").flatMap { $0.isEmpty ? nil : $0 }
        themeName = name ?? envName
        let envSize = variable("XCURSOR_SIZE").flatMap { Int32($0) }
        self.size = max(8, min(256, size ?? envSize ?? 24))
    }

    /// The default arrow: the theme's, else the built-in one (nil only if even that cannot be
    /// allocated).
    public var defaultCursor: CursorImage? {
        if let image = image(named: "default") { return image }
        if !loggedFallback {
            loggedFallback = true
            let bytes = Array(
                "strata: no Xcursor theme with a default cursor (theme \(themeName ?? "default"), size \(size)); using a built-in arrow\n"
                    .utf8)
            bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        return fallback
    }

    /// The cursor called `name` (a CSS cursor name or an X core name) from the theme, nil when
    /// the theme and its aliases do not have it.
    public func image(named name: String) -> CursorImage? {
        if let cached = cache[name] { return cached }
        if missing.contains(name) { return nil }
        for candidate in [name] + (Self.legacyAliases[name] ?? []) {
            if let image = load(candidate) {
                cache[name] = image
                return image
            }
        }
        missing.insert(name)
        return nil
    }

    private func load(_ name: String) -> CursorImage? {
        let themes: [String?] = themeName.map { [$0] } ?? ["default", "Adwaita"]
        for theme in themes {
            guard let raw = strata_xcursor_load_image(name, theme, size) else { continue }
            defer { strata_xcursor_image_destroy(raw) }
            let image = raw.pointee
            let count = Int(image.width) * Int(image.height)
            guard image.width > 0, image.height > 0, image.width <= 1024, image.height <= 1024, let data = image.pixels
            else { continue }
            let pixels = Array(UnsafeBufferPointer(start: data, count: count))
            if let cursor = CursorImage(
                width: Int32(image.width), height: Int32(image.height),
                hotspotX: Int32(image.xhot), hotspotY: Int32(image.yhot), pixels: pixels)
            {
                return cursor
            }
        }
        return nil
    }

    /// CSS cursor names (cursor-shape-v1) → the X core names older themes use.
    public static let legacyAliases: [String: [String]] = [
        "default": ["left_ptr", "arrow"],
        "context-menu": ["left_ptr"],
        "help": ["question_arrow", "whats_this", "left_ptr"],
        "pointer": ["hand2", "hand1", "pointing_hand"],
        "progress": ["left_ptr_watch", "half-busy"],
        "wait": ["watch"],
        "cell": ["plus"],
        "crosshair": ["cross", "tcross"],
        "text": ["xterm", "ibeam"],
        "vertical-text": ["xterm"],
        "alias": ["dnd-link", "link"],
        "copy": ["dnd-copy"],
        "move": ["fleur", "dnd-move"],
        "no-drop": ["dnd-no-drop", "crossed_circle"],
        "not-allowed": ["crossed_circle", "forbidden"],
        "grab": ["openhand", "hand1"],
        "grabbing": ["closedhand", "fleur"],
        "e-resize": ["right_side"],
        "n-resize": ["top_side"],
        "ne-resize": ["top_right_corner"],
        "nw-resize": ["top_left_corner"],
        "s-resize": ["bottom_side"],
        "se-resize": ["bottom_right_corner"],
        "sw-resize": ["bottom_left_corner"],
        "w-resize": ["left_side"],
        "ew-resize": ["sb_h_double_arrow", "h_double_arrow"],
        "ns-resize": ["sb_v_double_arrow", "v_double_arrow"],
        "nesw-resize": ["fd_double_arrow"],
        "nwse-resize": ["bd_double_arrow"],
        "col-resize": ["sb_h_double_arrow", "split_h"],
        "row-resize": ["sb_v_double_arrow", "split_v"],
        "all-scroll": ["fleur"],
        "zoom-in": ["zoom_in"],
        "zoom-out": ["zoom_out"],
    ]
}
