import StrataServer

/// A WlcsTouch: one finger with its own touch id, in the global compositor space.
final class FakeTouch {
    private let server: WLCSDisplayServer
    private let id: Int32
    /// The screen of the current touch sequence (motion is in its coordinates).
    private weak var output: ScreenOutput?

    init(server: WLCSDisplayServer) {
        self.server = server
        self.id = server.makeTouchID()
    }

    func down(x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return }
        server.perform { [self] compositor in
            guard let p = server.screenPoint(x: x, y: y, in: compositor) else { return }
            output = p.output
            compositor.seat.touchDown(id: id, on: p.output, x: p.x, y: p.y, time: WLCSDisplayServer.now())
        }
    }

    func move(x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return }
        server.perform { [self] compositor in
            guard let output else { return }
            let origin = output.screen.origin
            compositor.seat.touchMotion(id: id, x: x - origin.x, y: y - origin.y, time: WLCSDisplayServer.now())
        }
    }

    func up() {
        server.perform { [self] compositor in
            guard output != nil else { return }
            output = nil
            compositor.seat.touchUp(id: id, time: WLCSDisplayServer.now())
        }
    }

    /// Lifts the finger if it is still down (nothing happens once the loop has stopped).
    func destroy() {
        up()
    }
}
