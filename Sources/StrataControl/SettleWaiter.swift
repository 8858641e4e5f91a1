import Glibc
import StrataControlProtocol
import StrataModel
import StrataServer

/// One `settle` request waiting for the picture to settle (docs/control.md): the reply is sent
/// later, from a timer on the loop, once no shown window has committed (and, on the realtime
/// clock, none waits for a frame callback) for `frames` frame periods in a row, or with an error
/// naming the windows still changing once `timeout` seconds have passed. Under the manual clock
/// frame callbacks are left out (only a `step` answers them): settled means the clients have
/// answered the last step and stopped committing.
final class SettleWaiter {
    private unowned let server: ControlServer
    private weak var connection: ControlConnection?
    private let id: JSONValue
    private let frames: Int
    private let periodMilliseconds: Int32
    private let deadline: UInt64
    private let started = Clock.monotonicNanoseconds()
    private let countingCallbacks: Bool
    private var timer: LoopTimer?
    private var lastSerial: UInt64
    private var quietFrames = 0
    private var lastChanging: [Window] = []

    init?(server: ControlServer, connection: ControlConnection, id: JSONValue, frames: Int, timeout: Double) {
        self.server = server
        self.connection = connection
        self.id = id
        self.frames = frames
        let compositor = server.compositor
        let refresh = compositor.windows.screens.first?.currentMode?.refreshMilliHz ?? 60_000
        periodMilliseconds = Int32(max(1, min(1000, 1_000_000 / max(1, refresh))))
        deadline = started &+ UInt64(timeout * 1e9)
        countingCallbacks = !compositor.clock.isManual
        lastSerial = compositor.scene.commitSerial
        guard let timer = LoopTimer(eventLoop: compositor.display.eventLoop, fire: { [weak self] in self?.tick() })
        else { return nil }
        self.timer = timer
        timer.schedule(milliseconds: periodMilliseconds)
    }

    deinit { removeTimer() }

    private func removeTimer() {
        timer?.cancel()
        timer = nil
    }

    private func tick() {
        let scene = server.compositor.scene
        let changing = scene.changingWindows(committedAfter: lastSerial, countingCallbacks: countingCallbacks)
        lastSerial = scene.commitSerial
        if changing.isEmpty {
            quietFrames += 1
        } else {
            quietFrames = 0
            lastChanging = changing
        }
        let waited = Double(Clock.monotonicNanoseconds() &- started) / 1e9
        if quietFrames >= frames {
            finish(
                .object([
                    "id": id, "ok": true, "frames": JSONValue(frames), "waited_s": JSONValue(waited),
                    "sequence": JSONValue(server.events.lastSequence),
                ]))
        } else if Clock.monotonicNanoseconds() >= deadline {
            let still = changing.isEmpty ? lastChanging : changing
            let names = still.map { "\($0.id.rawValue) \($0.appID.isEmpty ? "(no app id)" : $0.appID) \"\($0.title)\"" }
            let message =
                "not settled after \((waited * 10).rounded() / 10) s: "
                + (names.isEmpty
                    ? "quiet for the last \(quietFrames) frames only, fewer than \(frames)"
                    : "still changing: " + names.joined(separator: "; "))
            finish(
                .object([
                    "id": id, "ok": false,
                    "error": ["code": .string(ControlErrorCode.failed.rawValue), "message": .string(message)],
                    "windows": .array(
                        still.map { window in
                            .object([
                                "id": JSONValue(window.id.rawValue), "app_id": .string(window.appID),
                                "title": .string(window.title),
                            ])
                        }),
                ]))
        } else if let timer {
            timer.schedule(milliseconds: periodMilliseconds)
        }
    }

    private func finish(_ reply: JSONValue) {
        removeTimer()
        connection?.send(reply: reply)
        server.settleWaiterDidFinish(self)
    }

    /// Strata is stopping: the waiter goes without a reply.
    func cancel() { removeTimer() }
}
