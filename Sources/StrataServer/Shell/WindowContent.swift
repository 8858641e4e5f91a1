import StrataModel

/// What the wire layer hangs on a model `Window` (`window.content`): the model's
/// `WindowContentHandle` with the server's `Surface` as its root surface. Everything the
/// compositor needs from a window's wire object is a requirement of `WindowContentHandle`
/// (key state, close, maximize, fullscreen, screen and usable-area changes, the commit offset,
/// the root surfaces): code outside `Shell/` calls those and never names a shell class.
public protocol WindowContent: WindowContentHandle where RootSurface == Surface {}

public extension Window {
    /// The window's main surface (its content's root surface). `Window.content` is typed by the
    /// model's protocol, whose surfaces the model cannot name: a server surface comes back as
    /// its associated type and is recognised by a compare of class metadata (`Surface` is final),
    /// with no protocol conformance lookup.
    var rootSurface: Surface? {
        content?.rootSurface as? Surface
    }

    /// The root surfaces drawn for the window, bottom to top: its own surface, then its popups.
    func forEachRootSurface(_ body: (Surface) -> Void) {
        content?.forEachRootSurface { root in
            if let surface = root as? Surface { body(surface) }
        }
    }
}
