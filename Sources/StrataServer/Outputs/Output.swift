import CStrataServerGlue
import CWaylandServer
import StrataModel

/// wl_output v4 for one screen. When the screen goes, its bindings turn inert (the global is
/// removed first and destroyed later, so late binds still succeed).
final class OutputBinding: ResourceObject {
    private(set) weak var output: ScreenOutput?
    /// The client's zxdg_output_v1 objects for this binding (they re-send with every change).
    var xdgOutputs: [Weak<XdgOutput>] = []

    init?(output: ScreenOutput, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.output = output
        super.init(
            client: client, interface: strata_wl_output_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let version: UInt32 = 4

    static let implementation = makeImplementation(wl_output_interface(release: destroyRequest))

    override func resourceDidDestroy() {
        output?.bindings.removeAll { $0 === self }
    }

    /// Makes the binding inert (its screen disconnected).
    func detach() { output = nil }

    /// Sends geometry, mode, scale, name, description and done.
    func sendState() {
        guard let output, !isDestroyed else { return }
        let screen = output.screen
        let mode = screen.currentMode ?? ScreenMode(width: 0, height: 0)
        wl_output_send_geometry(
            resource, Int32(clamping: Int(screen.origin.x)), Int32(clamping: Int(screen.origin.y)),
            Int32(clamping: mode.size.width * 254 / 960), Int32(clamping: mode.size.height * 254 / 960),
            Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue), "Strata", output.backendName,
            screen.transform.waylandValue)
        for m in screen.availableModes {
            var flags: UInt32 = 0
            if m == screen.currentMode { flags |= WL_OUTPUT_MODE_CURRENT.rawValue }
            if m == screen.preferredMode { flags |= WL_OUTPUT_MODE_PREFERRED.rawValue }
            wl_output_send_mode(
                resource, flags, Int32(clamping: m.size.width), Int32(clamping: m.size.height),
                Int32(clamping: m.refreshMilliHz))
        }
        if let current = screen.currentMode, !screen.availableModes.contains(current) {
            wl_output_send_mode(
                resource, WL_OUTPUT_MODE_CURRENT.rawValue, Int32(clamping: current.size.width),
                Int32(clamping: current.size.height), Int32(clamping: current.refreshMilliHz))
        }
        if version >= 2 { wl_output_send_scale(resource, Int32(clamping: screen.integerScale)) }
        if version >= 4 {
            wl_output_send_name(resource, screen.name)
            wl_output_send_description(resource, descriptionText)
        }
        // The client's xdg_outputs add their part to the same batch; one wl_output.done ends it.
        xdgOutputs.removeAll { $0.value == nil }
        for xdgOutput in xdgOutputs { xdgOutput.value?.sendState(endingBatch: false) }
        sendDone()
    }

    var descriptionText: String {
        guard let output else { return "Strata screen (disconnected)" }
        return "Strata \(output.backendName) screen \(output.screen.name)"
    }

    func sendDone() {
        if version >= 2, !isDestroyed { wl_output_send_done(resource) }
    }
}
