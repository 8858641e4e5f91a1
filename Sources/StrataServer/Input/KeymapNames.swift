/// The XKB rule names a keymap is compiled from (RMLVO: rules, model, layout, variant, options),
/// as `strata --keyboard-layout/--keyboard-variant/--keyboard-options/--keyboard-model` give
/// them. The host's XKB_DEFAULT_* variables are never read: without options the keymap is `us`
/// on every machine.
public struct KeymapNames: Equatable, Sendable {
    public var rules: String
    public var model: String
    /// One layout, or several separated by commas (`us,de`).
    public var layout: String
    public var variant: String
    public var options: String

    public init(
        rules: String = "evdev", model: String = "pc105", layout: String = "us", variant: String = "",
        options: String = ""
    ) {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    /// evdev, pc105, us, no variant, no options.
    public static let standard = KeymapNames()

    /// Names XKB can take: 1 to 255 bytes of printable ASCII without quotes or spaces (an empty
    /// variant or options is no variant, no options); nil when they are, else what is wrong.
    public var problem: String? {
        for (label, value, mayBeEmpty) in [
            ("keyboard-model", model, false), ("keyboard-layout", layout, false),
            ("keyboard-variant", variant, true), ("keyboard-options", options, true),
        ] {
            if value.isEmpty {
                if !mayBeEmpty { return "\(label) must not be empty" }
                continue
            }
            guard value.utf8.count <= 255,
                value.utf8.allSatisfy({
                    (0x21...0x7e).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                })
            else {
                return
                    "\(label) '\(value)' is not an XKB name (printable ASCII without spaces or quotes, at most 255 bytes)"
            }
        }
        return nil
    }

    /// The names on one line, for the keymap cache's key and messages.
    var line: String { "rules=\(rules) model=\(model) layout=\(layout) variant=\(variant) options=\(options)" }
}

extension KeymapNames {
    /// Why these names give no keymap, in words (the layout, else the variant, else the
    /// options or model named); nil when they compile. Compiles up to three keymaps: for a
    /// start that failed, not for every start.
    public var compileProblem: String? {
        if let problem { return problem }
        if Keymap(names: self, cache: KeymapCache(environment: ["STRATA_KEYMAP_CACHE": "0"])) != nil { return nil }
        let layoutAlone = KeymapNames(rules: rules, model: model, layout: layout)
        if Keymap(names: layoutAlone, cache: KeymapCache(environment: ["STRATA_KEYMAP_CACHE": "0"])) == nil {
            return
                "unknown keyboard layout '\(layout)' (see the layouts in /usr/share/X11/xkb/rules/evdev.lst, or localectl list-x11-keymap-layouts)"
        }
        var withVariant = layoutAlone
        withVariant.variant = variant
        if !variant.isEmpty,
            Keymap(names: withVariant, cache: KeymapCache(environment: ["STRATA_KEYMAP_CACHE": "0"])) == nil
        {
            return
                "unknown variant '\(variant)' of keyboard layout '\(layout)' (localectl list-x11-keymap-variants \(layout) lists them)"
        }
        return "the keyboard model '\(model)' and options '\(options)' give no keymap with layout '\(layout)'"
    }
}
