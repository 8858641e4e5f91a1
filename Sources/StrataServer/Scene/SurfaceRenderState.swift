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
    /// The anchor, unpacked (weak: a window or surface that dies leaves the surface unshown).
    enum AnchorKind: UInt8 { case none, window, surface }
    var anchorKind = AnchorKind.none
    weak var anchorWindow: Window?
    weak var anchorSurface: Surface?
    var anchorX = 0
    var anchorY = 0
    /// Where the surface was last shown (nil: not shown), and its size then.
    var lastPlacement: SurfacePlacement?
    var lastWidth: Int32 = 0
    var lastHeight: Int32 = 0
}
