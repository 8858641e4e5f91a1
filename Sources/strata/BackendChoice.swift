import ArgumentParser

/// The `--backend` choices; StrataNestedBackends.BackendChoice.make turns one into a backend
/// (`auto`: the desktop session Strata is started from, else headless).
enum BackendChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, headless, wayland, x11
}
