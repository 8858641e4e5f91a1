import CStrataWLCS

// The functions Sources/CStrataWLCS/strata-wlcs.c forwards WLCS's calls to. Handles are retained
// Swift objects: made by the create functions, released by the destroy functions.

private func object<T: AnyObject>(_ handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
    handle.map { Unmanaged<T>.fromOpaque($0).takeUnretainedValue() }
}

private func retain(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(object).toOpaque()
}

/// wl_fixed_t (24.8) to Double.
private func fixed(_ value: Int32) -> Double { Double(value) / 256 }

@_cdecl("strata_wlcs_swift_create")
func strataWLCSCreate(_ cServer: OpaquePointer, _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> UnsafeMutableRawPointer
{
    retain(WLCSDisplayServer(cServer: cServer))
}

@_cdecl("strata_wlcs_swift_destroy")
func strataWLCSDestroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    let server = Unmanaged<WLCSDisplayServer>.fromOpaque(handle).takeRetainedValue()
    server.stop()
}

@_cdecl("strata_wlcs_swift_start")
func strataWLCSStart(_ handle: UnsafeMutableRawPointer?) {
    object(handle, as: WLCSDisplayServer.self)?.start()
}

@_cdecl("strata_wlcs_swift_stop")
func strataWLCSStop(_ handle: UnsafeMutableRawPointer?) {
    object(handle, as: WLCSDisplayServer.self)?.stop()
}

@_cdecl("strata_wlcs_swift_create_client_socket")
func strataWLCSCreateClientSocket(_ handle: UnsafeMutableRawPointer?) -> Int32 {
    object(handle, as: WLCSDisplayServer.self)?.createClientSocket() ?? -1
}

@_cdecl("strata_wlcs_swift_position_window")
func strataWLCSPositionWindow(
    _ handle: UnsafeMutableRawPointer?, _ clientFD: Int32, _ surfaceID: UInt32, _ x: Int32, _ y: Int32
) {
    object(handle, as: WLCSDisplayServer.self)?.positionWindow(
        clientFD: clientFD, surfaceID: surfaceID, x: Int(x), y: Int(y))
}

@_cdecl("strata_wlcs_swift_create_pointer")
func strataWLCSCreatePointer(_ handle: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    object(handle, as: WLCSDisplayServer.self).map { retain(FakePointer(server: $0)) }
}

@_cdecl("strata_wlcs_swift_pointer_move")
func strataWLCSPointerMove(_ handle: UnsafeMutableRawPointer?, _ x: Int32, _ y: Int32, _ relative: Int32) {
    object(handle, as: FakePointer.self)?.move(x: fixed(x), y: fixed(y), relative: relative != 0)
}

@_cdecl("strata_wlcs_swift_pointer_button")
func strataWLCSPointerButton(_ handle: UnsafeMutableRawPointer?, _ button: Int32, _ pressed: Int32) {
    object(handle, as: FakePointer.self)?.button(button, pressed: pressed != 0)
}

@_cdecl("strata_wlcs_swift_pointer_destroy")
func strataWLCSPointerDestroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<FakePointer>.fromOpaque(handle).takeRetainedValue().destroy()
}

// touch.h declares wl_fixed_t coordinates, but WLCS 1.5 passes whole pixels (its Touch::down_at
// forwards its ints unconverted, and Mir's integration reads them as ints): taken as pixels here.
@_cdecl("strata_wlcs_swift_create_touch")
func strataWLCSCreateTouch(_ handle: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    object(handle, as: WLCSDisplayServer.self).map { retain(FakeTouch(server: $0)) }
}

@_cdecl("strata_wlcs_swift_touch_down")
func strataWLCSTouchDown(_ handle: UnsafeMutableRawPointer?, _ x: Int32, _ y: Int32) {
    object(handle, as: FakeTouch.self)?.down(x: Double(x), y: Double(y))
}

@_cdecl("strata_wlcs_swift_touch_move")
func strataWLCSTouchMove(_ handle: UnsafeMutableRawPointer?, _ x: Int32, _ y: Int32) {
    object(handle, as: FakeTouch.self)?.move(x: Double(x), y: Double(y))
}

@_cdecl("strata_wlcs_swift_touch_up")
func strataWLCSTouchUp(_ handle: UnsafeMutableRawPointer?) {
    object(handle, as: FakeTouch.self)?.up()
}

@_cdecl("strata_wlcs_swift_touch_destroy")
func strataWLCSTouchDestroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<FakeTouch>.fromOpaque(handle).takeRetainedValue().destroy()
}
