import CStrataClientGlue
import CWaylandClient
import Foundation

/// A wl_surface.frame callback in a test client; `onDone` runs when done arrives (inside the
/// client's dispatch, so it sees the server exactly as it was when it sent the event).
public final class TestFrameCallback {
    public private(set) var isDone = false
    public private(set) var time: UInt32 = 0
    public var onDone: (() -> Void)?
    private var callback: OpaquePointer?

    /// Requests a frame callback on `surface` (sent with the surface's next commit).
    public init?(surface: OpaquePointer) {
        guard let callback = wl_surface_frame(surface) else { return nil }
        self.callback = callback
        wl_callback_add_listener(callback, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let callback { wl_proxy_set_user_data(callback, nil) }
    }

    private static var listener = wl_callback_listener(done: { data, callback, time in
        guard let data else { return }
        let me = Unmanaged<TestFrameCallback>.fromOpaque(data).takeUnretainedValue()
        me.isDone = true
        me.time = time
        if let callback { wl_callback_destroy(callback) }
        me.callback = nil
        me.onDone?()
    })
}
