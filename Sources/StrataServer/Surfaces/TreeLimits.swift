/// Bounds on the trees a client builds out of surfaces: subsurface trees, popup chains and
/// xdg_toplevel.set_parent chains. Each limit keeps a request's cost and every walk's depth
/// independent of what the client built before; past one the client gets the protocol error
/// named with it (`docs/reliability.md`, "Trees and per-request cost").
enum TreeLimits {
    /// Subsurfaces below a root surface, counted along the longest chain (a root's child is at
    /// depth 1). Toolkits nest a few levels (GTK and Chromium at most four or five); 32 leaves
    /// room for embedding and keeps every walk over a tree (damage, drawing, hit testing, cached
    /// commits, placement up the chain) a short, bounded recursion.
    /// Past it: wl_subcompositor.bad_parent.
    static let maxSubsurfaceDepth = 32

    /// Subsurfaces in one tree (below one root surface, all levels). A commit of the root, a
    /// restack of a parent or the root's geometry walks the tree, so its size bounds what one
    /// request costs; 4,096 is far beyond any toolkit's use (video players and browsers use a
    /// handful to a few dozen) while a tree that size still damages and draws in about a
    /// millisecond. Past it: wl_subcompositor.bad_parent.
    static let maxSubsurfacesPerTree = 4096

    /// xdg_popup parents above a popup (a popup of a toplevel is at depth 1). Menus nest a few
    /// levels; 16 bounds the recursive dismissal, the nested-popup walks and the placement that
    /// follows the chain up. Past it: xdg_wm_base.invalid_popup_parent.
    static let maxPopupDepth = 16

    /// Popups one xdg_surface or layer surface is the parent of at once (dismissed ones count
    /// until destroyed). A parent shows one menu or tooltip at a time; 64 bounds the list each
    /// popup's destruction and the topmost check walk. Past it: xdg_wm_base.invalid_popup_parent.
    static let maxPopupsPerParent = 64

    /// xdg_toplevel.set_parent levels (a toplevel with a parent is at depth 1). Dialogs stack a
    /// few deep; 32 bounds the cycle check and the recursive raise of transient children.
    /// Past it: xdg_toplevel.invalid_parent.
    static let maxTransientDepth = 32

    /// Boxes a wl_region may hold. Each add or subtract and each use of the region costs up to
    /// its size, so the size bounds the request; 4,096 is far more than any shape a toolkit or
    /// Xwayland sends for input or opaque regions. Past it: wl_display.no_memory.
    static let maxRegionBoxes = 4096

    /// Damage boxes a surface's pending damage and a screen's damage keep: past it the damage
    /// becomes its extents (more is redrawn, nothing is missed), so each damage request and
    /// each union costs a bounded time however many rectangles a client sends.
    static let maxDamageBoxes = 256
}
