import StrataModel

/// Records every notification a manager posts, for assertions on order and count.
final class NotificationRecorder {
    private(set) var posted: [PostedNotification] = []
    private var token: ObserverToken?

    init(_ manager: WindowManager) {
        token = manager.notifications.addObserver(phase: .recording) { [unowned self] in posted.append($0) }
    }

    /// The notifications recorded since the last `take()`, without sequence numbers; clears them.
    func take() -> [WindowServerNotification] {
        defer { posted.removeAll() }
        return posted.map(\.notification)
    }

    /// The names recorded since the last `take()`; clears them.
    func takeNames() -> [String] {
        take().map(\.name)
    }

    func stop() {
        token?.remove()
    }
}
