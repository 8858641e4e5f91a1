import StrataModel

/// What the wire layer hangs on a model `Window` (`window.content`): the model's
/// `WindowContentHandle` with the server's `Surface` as its root surface. Everything the
/// compositor needs from a window's wire object is a requirement of `WindowContentHandle`
/// (key state, close, maximize, fullscreen, screen and usable-area changes, the commit offset,
/// the root surfaces): code outside `Shell/` calls those and never names a shell class.
public protocol WindowContent: WindowContentHandle where RootSurface == Surface {}

public extension Window {
    /// The window's main surface (its content's root surface). `Window.content` is typed by the
    /// model's protocol, whose surfaces the model cannot name: a root surface comes back as the
    /// associated type, erased, and is recognised by `surface(_:)`, with no cast of the content
    /// and no protocol conformance lookup.
    var rootSurface: Surface? {
        guard let root = content?.rootSurface else { return nil }
        return Self.surface(root)
    }

    /// The root surfaces drawn for the window, bottom to top: its own surface, then its popups.
    func forEachRootSurface(_ body: (Surface) -> Void) {
        content?.forEachRootSurface { root in
            if let surface = Self.surface(root) { body(surface) }
        }
    }

    /// `object` if it is a server `Surface`: a compare of its class with `Surface`'s (the class is
    /// final, so the exact type is the only one), then a downcast that cannot fail. Measured with
    /// callgrind on a two-module model of the per-frame walk: 70 instructions a window fewer than
    /// `as? Surface` (a runtime cast call, then a retain and a release), 16 fewer than the old
    /// `as? XdgToplevel` fast path.
    @inline(__always)
    internal static func surface(_ object: AnyObject) -> Surface? {
        type(of: object) == Surface.self ? unsafeDowncast(object, to: Surface.self) : nil
    }
}
