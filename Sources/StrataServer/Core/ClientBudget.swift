import CStrataServerGlue
import CWaylandServer

/// What one client may make Strata hold: the caps, each with its reason, in one place
/// (`docs/reliability.md`, "Per-client budgets"). Past a cap the client gets a protocol error
/// (the interface's own where one fits, else `wl_display.error` no_memory) and is disconnected;
/// nobody else notices.
///
/// Objects and wl_shm pools are counted in C (`client-budget.c`): a resource-created listener
/// and a destroy listener on every resource of the client, libwayland's own (wl_shm_pool,
/// wl_buffer, wl_callback, wl_registry) included, and the protocol-logger hook that sees
/// `wl_shm.create_pool` and `wl_shm_pool.resize` right before libwayland runs them. The other
/// caps are checked where the thing is made (frame callbacks, MIME types) and charged to the
/// client's budget when they outlive one object (MIME bytes, copies of destroyed buffers).
public struct ClientBudget {
    // MARK: The caps

    /// Live resources (protocol objects) of one client. A real client has hundreds to a few
    /// thousands (a browser with many subsurfaces and buffers). Measured: a wl_region costs
    /// Strata about 300 bytes, so 50,000 objects other than surfaces are some 15–60 MB.
    public static let maxObjects: UInt32 = 50_000
    /// Live wl_surfaces of one client, the costliest objects (measured: about 2.7 KB each with
    /// their pending and cached states and regions; 50,000 would be 130 MB). Toolkits use one
    /// per window, popup, cursor and subsurface: tens, rarely hundreds. 10,000 cost 27 MB.
    public static let maxSurfaces: UInt32 = 10_000
    /// Live wl_shm pool mappings of one client (a pool's mapping lives while the pool or a
    /// buffer made from it does). Each is one entry of the process's map table (vm.max_map_count,
    /// 65,530 by default, shared with everything else Strata maps): toolkits use one pool per
    /// buffer or one per surface, a few to some dozens; 1,024 leaves 60 clients at the cap before
    /// the table is at risk.
    public static let maxPools: UInt32 = 1_024
    /// Bytes of one client's wl_shm pools together: address space, not memory (the pages are the
    /// client's), but 65,536 pools of 2 GiB would use up the 128 TiB of user address space.
    /// 8 GiB is eight 8K (7680×4320) ARGB buffers… times eight; 1,000 clients at the cap use 8 TiB.
    public static let maxPoolBytes: UInt64 = 8 << 30
    /// Frame callbacks waiting on one surface (pending, cached and applied ones). A client asks
    /// for one per frame and waits for it; a surface that is not shown keeps its callbacks (done
    /// at its next frame), so a client committing with a callback on its own clock while hidden
    /// piles them up: past the cap its applied callbacks are done at once (the spec allows done
    /// at any time), and only a client asking for more than the cap without a commit between
    /// them gets no_memory.
    public static let maxFrameCallbacksPerSurface = 256
    /// MIME types one selection source may offer. Applications offer up to a few dozens
    /// (LibreOffice about 30, Xwayland the targets of an X selection): 128 is room enough, and
    /// what is forwarded to the key client stays small (`maxMimeBytesPerSource`).
    public static let maxMimeTypesPerSource = 128
    /// Length of one MIME type in bytes. Real ones are under 100 ("text/plain;charset=utf-8",
    /// "application/x-qt-windows-mime;value=\"…\"").
    public static let maxMimeTypeLength = 255
    /// Bytes of all MIME types of one source together (each counted with its wire overhead of
    /// 16 bytes: header, length, NUL and padding). What Strata forwards to the keyboard focus
    /// client for one selection is therefore at most 16 KiB of events: a tenth of a socket's
    /// default send buffer (208 KiB), so a client that reads slowly is not dropped because
    /// another client's selection arrived while it was busy (libwayland 1.21 drops a client whose
    /// socket is full: its own buffer is a fixed 4 KiB).
    public static let maxMimeBytesPerSource = 16 << 10
    /// MIME bytes (as above) of all of one client's live sources: 64 sources at the cap each.
    public static let maxMimeBytesPerClient: UInt64 = 1 << 20
    /// Bytes of pixels Strata copies for one client's shm buffers destroyed while still shown
    /// (so the surface keeps its picture until the next commit). Beyond it, such a buffer is
    /// not copied and the surface shows nothing until its next buffer (weston's pixman renderer
    /// never copies). Two full 4K (3840×2160) ARGB frames.
    public static let maxCopiedBytesPerClient: UInt64 = 64 << 20
    /// Data control devices (zwlr_data_control_device_v1, ext_data_control_device_v1) of one
    /// client. Each is told of every selection change and may wait for its socket to drain on a
    /// timer of its own (`BackpressureSender`, one per selection): a clipboard manager or wl-paste makes
    /// one; 16 bounds the work per change and the timer fds one client can make Strata hold.
    public static let maxSelectionWatchersPerClient: UInt64 = 16
    /// Idle notifications (ext_idle_notification_v1) of one client. swayidle makes one per
    /// `timeout` of its command line: a handful. Every input event may resume them and the idle
    /// timer walks them all, so 64 bounds that work per client.
    public static let maxIdleNotificationsPerClient: UInt64 = 64
    /// Idle inhibitors (zwp_idle_inhibitor_v1) of one client. A video player makes one per
    /// window that plays; the idle timer may look at all of them when a deadline passes.
    public static let maxIdleInhibitorsPerClient: UInt64 = 64
    /// Live xdg-foreign exports (zxdg_exported_v1/v2) of one client. A toolkit exports a window
    /// when it opens a portal dialog for it: one or two at a time. Each holds a handle in a
    /// table every import looks in; 256 bounds what one client adds to it.
    public static let maxExportsPerClient = 256
    /// Lock surfaces of one ext_session_lock_v1 (one per screen; the rest name screens that are
    /// gone): each get_lock_surface looks through them, so they are capped.
    public static let maxLockSurfacesPerLock = 64
    /// Image copy capture sessions (ext_image_copy_capture_session_v1) of one client. A screen
    /// recorder makes one per screen or window, a window switcher's thumbnails one per window:
    /// 256 is room for that; each session is told of every change of its source (a screen's
    /// painted frame, a window's commit), so the cap bounds that work per client.
    public static let maxCaptureSessionsPerClient = 256
    /// Pointer gesture objects (swipe, pinch, hold) of one client. A toolkit makes one of each
    /// per wl_pointer: a handful. Every gesture event goes to all of the focus client's, so 256
    /// bounds that work.
    public static let maxPointerGesturesPerClient = 256
    /// Tablet seats (zwp_tablet_seat_v2) of one client: one per wl_seat, and Strata has one.
    /// Each holds a zwp_tablet_v2 and a zwp_tablet_tool_v2 per tool, and each tool event goes to
    /// all of the focus client's, so 16 bounds both.
    public static let maxTabletSeatsPerClient = 16

    // MARK: Xwayland's budget

    /// Xwayland's connection carries every X client's windows and pixmaps (rootless Xwayland
    /// backs each pixmap of depth 15 or more with a wl_shm pool and a wl_buffer of its own: an
    /// image-heavy X program, Wine, Java, Emacs with images, holds thousands), so its caps are
    /// `xwaylandMultiple` times an ordinary client's: 16,384 pools are a quarter of the process's
    /// map table (65,530), 800,000 objects some 250–500 MB, 160,000 surfaces 430 MB, 128 GiB of
    /// pool address space a thousandth of the user address space. What one X client may take of
    /// it is bounded by the XWM (`XWM+Budget.swift`): past the high-water mark (half) of any
    /// cap, the X client holding the most pixmaps is disconnected, so Xwayland itself never
    /// reaches its caps (the other half is the room for the time X takes to answer).
    public static let xwaylandMultiple: UInt32 = 16

    /// Caps of one client, as numbers (Xwayland's may be changed before it starts, for tests).
    public struct Limits: Sendable, Equatable {
        public var objects: UInt32
        public var surfaces: UInt32
        public var pools: UInt32
        public var poolBytes: UInt64

        public init(objects: UInt32, surfaces: UInt32, pools: UInt32, poolBytes: UInt64) {
            self.objects = objects
            self.surfaces = surfaces
            self.pools = pools
            self.poolBytes = poolBytes
        }

        /// An ordinary client's caps.
        public static let client = Limits(
            objects: maxObjects, surfaces: maxSurfaces, pools: maxPools, poolBytes: maxPoolBytes)
        /// Xwayland's: `xwaylandMultiple` times an ordinary client's.
        public static let xwayland = Limits(
            objects: maxObjects * xwaylandMultiple, surfaces: maxSurfaces * xwaylandMultiple,
            pools: maxPools * xwaylandMultiple, poolBytes: maxPoolBytes * UInt64(xwaylandMultiple))

        /// The high-water marks of these caps: half of each.
        public var highWater: Limits {
            Limits(objects: objects / 2, surfaces: surfaces / 2, pools: pools / 2, poolBytes: poolBytes / 2)
        }

        var c: strata_budget_limits {
            strata_budget_limits(
                max_resources: objects, max_surfaces: surfaces, max_pools: pools, max_pool_bytes: poolBytes)
        }
    }

    /// Gives this client (Xwayland) `limits` and calls `notify` whenever a count grows past its
    /// high-water mark (right after the request that grew it: `notify` must not destroy
    /// resources). `data` is passed to `notify` and must live as long as the client.
    func setLimits(
        _ limits: Limits, notify: @convention(c) (UnsafeMutableRawPointer?) -> Void, data: UnsafeMutableRawPointer
    ) {
        strata_client_budget_set_limits(pointer, limits.c, limits.highWater.c, notify, data)
    }

    // MARK: Installing and reading

    static var limits: strata_budget_limits { Limits.client.c }

    let pointer: OpaquePointer

    /// The budget of `client` (nil for a client of a display without budgets).
    init?(of client: OpaquePointer) {
        guard let pointer = strata_client_budget_of(client) else { return nil }
        self.pointer = pointer
    }

    public static func of(_ client: OpaquePointer) -> ClientBudget? { ClientBudget(of: client) }

    /// The client's live resources (libwayland's wl_display excluded).
    public var objects: Int { Int(strata_client_budget_resources(pointer)) }
    /// Its live wl_surfaces.
    public var surfaces: Int { Int(strata_client_budget_surfaces(pointer)) }
    /// Its live wl_shm pool mappings and their bytes.
    public var pools: Int { Int(strata_client_budget_pools(pointer)) }
    public var poolBytes: UInt64 { strata_client_budget_pool_bytes(pointer) }
    public var mimeBytes: UInt64 { strata_client_budget_charged(pointer, STRATA_CHARGE_MIME_BYTES) }
    public var copiedBytes: UInt64 { strata_client_budget_charged(pointer, STRATA_CHARGE_COPIED_BYTES) }
}

/// A charge on a client's budget, kept by the object it pays for and refunded when that object
/// lets go of it (`refund()`, also at deinit). It retains the budget, so it may outlive the client.
final class BudgetCharge {
    private let budget: OpaquePointer
    private let kind: strata_budget_charge
    private(set) var bytes: UInt64 = 0

    init?(client: OpaquePointer, kind: strata_budget_charge) {
        guard let budget = strata_client_budget_of(client) else { return nil }
        self.budget = budget
        self.kind = kind
        strata_client_budget_retain(budget)
    }

    deinit {
        refund()
        strata_client_budget_release(budget)
    }

    /// Adds `amount` when the client's total stays within `limit`.
    func add(_ amount: UInt64, limit: UInt64) -> Bool {
        guard strata_client_budget_charge(budget, kind, amount, limit) != 0 else { return false }
        bytes += amount
        return true
    }

    func refund() {
        strata_client_budget_refund(budget, kind, bytes)
        bytes = 0
    }
}

extension ProtocolError {
    /// wl_display.error no_memory (on the client's wl_display, object 1): a cap of the client's
    /// budget is exceeded.
    static func noMemory(_ message: String, client: OpaquePointer) -> ProtocolError {
        ProtocolError(on: wl_client_get_object(client, 1), code: WL_DISPLAY_ERROR_NO_MEMORY.rawValue, message)
    }
}
