import StrataModel
import StrataRender

/// What the scene keeps for one surface between frames: where it hangs (its `SurfaceAnchor`, as
/// the wire last told), where it was last shown (so a move, resize or unmap damages the old place)
/// and its part of the frame being drawn.
///
/// Each `Surface` holds one (`Surface.render`), made with it, so the frame path reaches it with a
/// stored reference and no lookup; only the scene reads and writes it (`docs/scene.md`).
final class SurfaceRenderState {
    /// The part of the screen damage the surface draws in the frame being composed (canvas
    /// pixels; set by the occlusion pass, read by the draw that follows).
    let drawClip = BoxList()
    /// The anchor, unpacked. The window is held strongly: a weak reference would give every
    /// `Window` a side table, and each retain and release of a window (every frame's walk of the
    /// stacking) would take the runtime's slow path; a window holds its content weakly, so there
    /// is no cycle, and a closed window is never shown (`isClosed`). The parent surface is weak
    /// (surfaces have side tables already; a parent holds its children).
    enum AnchorKind: UInt8 { case none, window, surface, screen }
    var anchorKind = AnchorKind.none
    var anchorWindow: Window?
    weak var anchorSurface: Surface?
    var anchorScreen: ScreenID?
    var anchorX = 0
    var anchorY = 0
    /// The mask multiplying its alpha (wp_alpha_modifier_v1), nil when it is unchanged; made at
    /// the commit that changes the factor.
    var alphaMask: SolidMask?
    /// Where the surface was last shown (nil: not shown), and its size then.
    var lastPlacement: SurfacePlacement?
    var lastWidth: Int32 = 0
    var lastHeight: Int32 = 0
    /// `Scene.commitSerial` at the surface's last applied commit (0: none yet).
    var lastCommitSerial: UInt64 = 0
}
