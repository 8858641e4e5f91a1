import CXCB
import FoundationEssentials
import Glibc
import StrataModel
import StrataServer

/// Chooses and creates Strata's backend: `--backend` when given, else from the session Strata
/// was started in — WAYLAND_DISPLAY set: nested in that Wayland session; else DISPLAY set: nested
/// in that X11 session; else headless. The parent's variables are used only to connect upward.
public enum BackendChoice {
    public static let names = ["headless", "wayland", "x11"]

    /// The backend `strata` would use without `--backend`.
    public static func automaticName(environment: [String: String]) -> String {
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty { return "wayland" }
        if let x11 = environment["DISPLAY"], !x11.isEmpty { return "x11" }
        return "headless"
    }

    /// Creates the backend named `name` (nil: the automatic choice) with `screens` screens in
    /// `modes` (the first is preferred; nested screens open at that size). Nested backends
    /// connect to their parent here, so a missing or refusing parent is reported before the
    /// compositor starts.
    public static func make(
        name: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        screens: Int = 1, modes: [ScreenMode]
    ) throws(NestedBackendError) -> Backend {
        let chosen = name ?? automaticName(environment: environment)
        switch chosen {
        case "headless":
            return HeadlessBackend(screens: screens, modes: modes)
        case "wayland":
            let context =
                name == nil
                ? "nested in the Wayland session (WAYLAND_DISPLAY is set; --backend chooses another)"
                : "--backend wayland"
            guard let parent = environment["WAYLAND_DISPLAY"], !parent.isEmpty else {
                throw NestedBackendError(
                    context: context, reason: .notInSession,
                    message: "WAYLAND_DISPLAY is not set: there is no parent Wayland session to connect to")
            }
            try requireLibraries(of: ["wl_display_connect"], context: context)
            return try WaylandBackend(displayName: parent, screens: screens, modes: modes, context: context)
        case "x11":
            let context =
                name == nil ? "nested in the X11 session (DISPLAY is set; --backend chooses another)" : "--backend x11"
            guard let parent = environment["DISPLAY"], !parent.isEmpty else {
                throw NestedBackendError(
                    context: context, reason: .notInSession,
                    message: "DISPLAY is not set: there is no parent X11 session to connect to")
            }
            try requireLibraries(
                of: [
                    "xcb_connect", "xcb_shm_attach", "xcb_xkb_per_client_flags", "xkb_x11_setup_xkb_extension",
                    "xcb_xfixes_query_version",
                ],
                context: context)
            return try X11Backend(displayName: parent, screens: screens, modes: modes, context: context)
        default:
            throw NestedBackendError(
                context: "--backend \(chosen)", reason: .unknownBackend,
                message: "unknown backend; use one of \(names.joined(separator: ", "))")
        }
    }

    /// A nested backend's libraries are opened at its start (not linked: CDeferredLibraries), so
    /// one that is missing is this error, before any of its functions is called.
    private static func requireLibraries(of functions: [String], context: String) throws(NestedBackendError) {
        for function in functions {
            var error: UnsafePointer<CChar>?
            guard strata_deferred_open(function, &error) == 0 else { continue }
            throw NestedBackendError(
                context: context, reason: .cannotConnect,
                message: "cannot load the library of \(function): \(error.map { String(cString: $0) } ?? "not found")")
        }
    }
}
