import ArgumentParser

/// The `--backend` choices. Only the headless backend exists so far; `auto` picks it.
enum BackendChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, headless, wayland, x11

    /// Whether this backend can run now; nil if it can, otherwise why not.
    var unavailableReason: String? {
        switch self {
        case .auto, .headless: return nil
        case .wayland, .x11:
            return "the \(rawValue) backend (nesting Strata in a desktop session) is not available yet; use --backend headless"
        }
    }
}
