import StrataServer

/// A WlcsPointer: moves the seat's pointer in the global compositor space and presses buttons.
/// Every fake pointer drives the one seat pointer (as several mice do).
final class FakePointer {
    private let server: WLCSDisplayServer
    /// Buttons this device holds, released when it is destroyed while the loop runs.
    private var held: Set<UInt32> = []

    init(server: WLCSDisplayServer) {
        self.server = server
    }

    /// (x, y) in wl_fixed units: a position, or a delta when `relative`.
    func move(x: Double, y: Double, relative: Bool) {
        guard x.isFinite, y.isFinite else { return }
        server.perform { [server] compositor in
            server.movePointer(x: x, y: y, relative: relative, in: compositor)
        }
    }

    func button(_ code: Int32, pressed: Bool) {
        guard code >= 0 else { return }
        let button = UInt32(code)
        server.perform { [self] compositor in
            if pressed { held.insert(button) } else { held.remove(button) }
            compositor.seat.pointerButton(button, pressed: pressed, time: WLCSDisplayServer.now())
        }
    }

    /// Releases what this device still holds (nothing happens once the loop has stopped).
    func destroy() {
        server.perform { [self] compositor in
            for button in held.sorted() {
                compositor.seat.pointerButton(button, pressed: false, time: WLCSDisplayServer.now())
            }
            held.removeAll()
        }
    }
}
