/// One kind of event and who hears it, with the guarantee of wl_signal_emit_mutable: a listener
/// removed during an emit is not called afterwards (not even later in the same emit), one added
/// during an emit hears the next one. Listeners are called in the order they were added. The
/// scene's `framePresented`, `windowImageChanged` and `outputWillGo`, the seat's `inputHandled`
/// and `dragChanged`, a surface's `didDestroy`.
///
/// With nobody listening an emit is one check; an emit allocates nothing.
public final class Signal<Value> {
    /// A listener's handle: `remove()` stops it (also during an emit); removing twice is harmless.
    public final class Token {
        fileprivate var block: ((Value) -> Void)?
        fileprivate weak var signal: Signal<Value>?

        fileprivate init(_ block: @escaping (Value) -> Void, signal: Signal<Value>) {
            self.block = block
            self.signal = signal
        }

        public func remove() {
            guard block != nil else { return }
            block = nil
            signal?.tokenDidRemove()
        }
    }

    private var tokens: [Token] = []
    /// Emits under way (a listener may emit again); removed tokens leave the list after the last.
    private var emitting = 0
    private var hasRemovedTokens = false

    public init() {}

    /// Whether nobody listens (an emitter may skip working out the value).
    public var isEmpty: Bool { count == 0 }

    /// How many listen.
    public var count: Int { hasRemovedTokens ? tokens.count(where: { $0.block != nil }) : tokens.count }

    /// Calls `block` at every emit from now on, until the token is removed.
    @discardableResult
    public func observe(_ block: @escaping (Value) -> Void) -> Token {
        let token = Token(block, signal: self)
        tokens.append(token)
        return token
    }

    /// Calls every listener with `value`.
    public func emit(_ value: Value) {
        guard !tokens.isEmpty else { return }
        emitting += 1
        // By index up to the count at the start: listeners added meanwhile wait for the next emit.
        let end = tokens.count
        var index = 0
        while index < end {
            let token = tokens[index]
            index += 1
            token.block?(value)
        }
        emitting -= 1
        if emitting == 0, hasRemovedTokens { compact() }
    }

    private func tokenDidRemove() {
        hasRemovedTokens = true
        if emitting == 0 { compact() }
    }

    private func compact() {
        tokens.removeAll { $0.block == nil }
        hasRemovedTokens = false
    }
}
