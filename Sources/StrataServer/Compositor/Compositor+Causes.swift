import StrataModel

/// The causes the wire gives the model's changes (`ChangeCause`, `docs/window-model.md`,
/// "Causes"): input, a shell showing its window, a client's or a command's request. Each is
/// stamped with the clock's time when the request or input arrived.
extension Compositor {
    /// A cause of `kind` requested now (`clock`).
    public func cause(_ kind: ChangeCause.Kind, request: String, requester: String) -> ChangeCause {
        ChangeCause(kind, request: request, requester: requester, requestedAt: clock.nanoseconds)
    }

    /// Runs `body` (changes to `windows`) under a cause of `kind` requested now.
    @discardableResult
    public func withCause<T>(
        _ kind: ChangeCause.Kind, request: String, requester: String, _ body: () -> T
    ) -> T {
        windows.withCause(cause(kind, request: request, requester: requester), body)
    }

    /// Runs `body` under the cause of a user's input (`requester` "user").
    @discardableResult
    func withInputCause<T>(_ kind: ChangeCause.Kind, request: String, _ body: () -> T) -> T {
        withCause(kind, request: request, requester: "user", body)
    }

    /// A Wayland client as a requester: `"pid N"`.
    public static func requester(of client: OpaquePointer) -> String {
        "pid \(StartedProcessIDs.processID(of: client))"
    }

    /// A window's client as a requester: `"pid N"`, empty when its process is not known.
    public static func requester(of window: Window) -> String {
        window.pid > 0 ? "pid \(window.pid)" : ""
    }

    /// Runs `body`, what `window`'s client did to its own window (unmapped, closed, minimized it),
    /// under an `.other` cause of that client; under the running cause when there is one (the
    /// client answering a command, say).
    @discardableResult
    func withClientCause<T>(_ window: Window, request: String, _ body: () -> T) -> T {
        guard windows.currentCause == nil else { return body() }
        return withCause(.other, request: request, requester: Self.requester(of: window), body)
    }

    /// Runs `body`, a shell showing `window` (its map), under a `.map` cause of its client.
    @discardableResult
    func withMapCause<T>(_ window: Window, request: String, _ body: () -> T) -> T {
        withCause(.map, request: request, requester: Self.requester(of: window), body)
    }
}
