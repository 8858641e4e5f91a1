import CStrataClientGlue
import CWaylandClient

/// One of the parent compositor's wl_outputs, bound for its scale: a nested screen whose window
/// is on outputs of scale 2 draws at buffer scale 2 and takes scale 2 itself
/// (`WaylandScreen.updateParentScale`).
final class ParentOutput {
    unowned let backend: WaylandBackend
    let proxy: OpaquePointer
    let globalName: UInt32
    /// The scale the parent announced last (wl_output.scale, applied at wl_output.done).
    private(set) var scale: Int32 = 1
    private var pendingScale: Int32 = 1

    init(backend: WaylandBackend, proxy: OpaquePointer, globalName: UInt32) {
        self.backend = backend
        self.proxy = proxy
        self.globalName = globalName
        wl_output_add_listener(proxy, &ParentOutput.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        if wl_proxy_get_version(proxy) >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> ParentOutput? {
        data.map { Unmanaged<ParentOutput>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { data, _ in
            guard let output = from(data), output.scale != output.pendingScale else { return }
            output.scale = output.pendingScale
            output.backend.parentOutputsDidChange()
        },
        scale: { data, _, factor in
            // A nonsensical scale from the parent counts as 1; Strata's screens go up to 8.
            from(data)?.pendingScale = (1...8).contains(factor) ? factor : 1
        },
        name: { _, _, _ in },
        description: { _, _, _ in })
}
