/// The one choke point of the window model: it owns the screens, the windows and their stacking,
/// decides the key window with its `policy`, and posts every change through `notifications`.
///
/// Each public mutation is a transaction: it changes the model completely, then posts the
/// notifications it caused, in a defined order (see `docs/window-model.md`), each exactly once.
/// A mutation that changes nothing posts nothing. Mutations on a closed window, a window or
/// screen of another manager, or a disconnected screen are ignored.
public final class WindowManager {
    public let notifications = WindowNotificationCenter()

    /// Decides key-window changes; may be replaced at any time (the key window stays as it is).
    public var policy: any KeyWindowPolicy

    /// Decides where windows go (a new window's first frame; maximized, fullscreen and restored
    /// frames); may be replaced at any time (windows already placed stay where they are).
    public var placement: any WindowPlacementPolicy

    /// Connected screens; index 0 is the main screen.
    public private(set) var screens: [Screen] = []

    /// All open windows, hidden ones included, back to front: sorted by level, and inside a level
    /// the most recently ordered-front window is frontmost.
    public private(set) var windows: [Window] = []

    /// The window receiving keyboard and other non-pointer events, if any.
    public private(set) var keyWindow: Window?

    /// Whether the session is locked (`lock()`): a lock screen covers every screen, and no
    /// window is key (every request to make one key is refused) until `unlock()`.
    public private(set) var isLocked = false

    /// The window that was key when the session locked, restored by `unlock()`.
    private var keyWindowBeforeLock: Window?

    private var nextWindowNumber: UInt64 = 1
    /// The next `Window.stackingStamp` for a window ordered front (counts up) or back (down).
    private var nextFrontStamp: Int64 = 1
    private var nextBackStamp: Int64 = -1
    private var nextScreenNumber: UInt64 = 1
    private var pending = PendingNotifications()

    /// The cause the running transaction's notifications carry (`withCause(_:_:)`); nil outside.
    public private(set) var currentCause: ChangeCause? {
        didSet { pending.cause = currentCause }
    }

    /// Runs `body` (mutations of this manager) with `cause`: every notification it posts carries
    /// it, but for the steps that name their own (`ChangeCause.Kind.successor`, `.modal`). Calls
    /// nest; the innermost cause wins inside it.
    public func withCause<T, E: Error>(_ cause: ChangeCause, _ body: () throws(E) -> T) throws(E) -> T {
        let outer = currentCause
        currentCause = cause
        defer { currentCause = outer }
        return try body()
    }

    public init(
        policy: any KeyWindowPolicy = UIKitKeyWindowPolicy(),
        placement: any WindowPlacementPolicy = CascadePlacement()
    ) {
        self.policy = policy
        self.placement = placement
    }

    // MARK: Queries

    /// The main screen (index 0 of `screens`), nil while none is connected.
    public var mainScreen: Screen? { screens.first }

    /// The visible windows on `screen`, back to front.
    public func visibleWindows(on screen: Screen) -> [Window] {
        windows.filter { !$0.isHidden && $0.screen === screen }
    }

    /// The open window with this id, if any.
    public func window(withID id: WindowID) -> Window? {
        windows.first { $0.id == id }
    }

    /// The connected screen with this id, if any.
    public func screen(withID id: ScreenID) -> Screen? {
        screens.first { $0.id == id }
    }

    /// Whether `window` may be key right now: open, visible, `canBecomeKey`, on a connected
    /// screen, and the session not locked.
    public func isEligibleForKey(_ window: Window) -> Bool {
        guard !isLocked, owns(window), !window.isHidden, window.canBecomeKey, let screen = window.screen else {
            return false
        }
        return owns(screen)
    }

    /// The topmost visible window on `screen` whose frame contains `p` (in the screen's
    /// coordinates) and which `accepting` accepts, given `p` in that window's coordinates (so the
    /// caller can test an input region).
    public func window(
        at p: Point, on screen: Screen, accepting: (Window, Point) -> Bool = { _, _ in true }
    ) -> Window? {
        for window in visibleWindows(on: screen).reversed() where window.frame.contains(p) {
            if accepting(window, window.convert(p, from: nil)) {
                return window
            }
        }
        return nil
    }

    // MARK: Screens

    /// Connects a screen, placed to the right of the existing ones (top edges aligned). `preferred`
    /// is an index into `modes` (out of range means 0); the screen starts in that mode. The first
    /// screen becomes main; windows left without a screen move onto it.
    @discardableResult
    public func connectScreen(name: String, modes: [ScreenMode], preferred: Int = 0, scale: Double = 1)
        -> Screen
    {
        let screen = Screen(
            id: ScreenID(nextScreenNumber), name: name, modes: modes, preferredIndex: preferred,
            scale: scale)
        nextScreenNumber += 1
        screen.origin = Point(x: Double(screens.map(\.bounds.maxX).max() ?? 0), y: 0)
        screen.manager = self
        screens.append(screen)
        pending.append(.screenDidConnect(screen.id))
        for window in windows where window.screen == nil {
            window.screen = screen
            pending.append(.windowDidMoveToScreen(window.id, from: nil, to: screen.id))
        }
        commit()
        return screen
    }

    /// Disconnects `screen`. Its windows (back to front) move to the main screen of the remaining
    /// ones, keeping their frames, each with `windowDidMoveToScreen`; then `screenDidDisconnect`.
    /// If it was main, the next screen becomes main. If it was the last screen, its windows are
    /// left without a screen (no move notifications) and the key window resigns, before
    /// `screenDidDisconnect`; they move onto the next screen that connects.
    public func disconnectScreen(_ screen: Screen) {
        guard owns(screen), let index = screens.firstIndex(where: { $0 === screen }) else { return }
        screens.remove(at: index)
        screen.isConnected = false
        let affected = windows.filter { $0.screen === screen }
        if let target = mainScreen {
            for window in affected {
                window.screen = target
                pending.append(.windowDidMoveToScreen(window.id, from: screen.id, to: target.id))
            }
        } else {
            if let key = keyWindow, key.screen === screen {
                changeKey(to: nil)
            }
            for window in affected {
                window.screen = nil
            }
        }
        pending.append(.screenDidDisconnect(screen.id))
        screen.manager = nil
        commit()
    }

    /// Switches `screen` to `mode`, which must be one of its `availableModes`.
    public func setMode(_ mode: ScreenMode, for screen: Screen) throws(ScreenConfigurationError) {
        guard owns(screen) else { throw .screenNotConnected(screen.id) }
        guard screen.availableModes.contains(mode) else {
            throw .modeNotAvailable(mode, screen: screen.id)
        }
        guard screen.currentMode != mode else { return }
        screen.currentMode = mode
        pending.append(.screenModeDidChange(screen.id))
        commit()
    }

    /// Switches `screen` to a mode of any positive size: the screen's window in a parent session
    /// was resized. The mode becomes the screen's one `customMode` (replacing the previous one)
    /// and appears in `availableModes` while it is not one of the backend's modes. Posts
    /// `screenModeDidChange` when the current mode changes. Sizes below 1×1 are refused.
    public func setCustomMode(_ mode: ScreenMode, for screen: Screen) throws(ScreenConfigurationError) {
        guard owns(screen) else { throw .screenNotConnected(screen.id) }
        guard mode.size.width > 0, mode.size.height > 0, mode.refreshMilliHz > 0 else {
            throw .modeNotAvailable(mode, screen: screen.id)
        }
        screen.customMode = mode
        guard screen.currentMode != mode else { return }
        screen.currentMode = mode
        pending.append(.screenModeDidChange(screen.id))
        commit()
    }

    public func setTransform(_ transform: ScreenTransform, for screen: Screen) {
        guard owns(screen), screen.transform != transform else { return }
        screen.transform = transform
        pending.append(.screenDidChangeTransform(screen.id))
        commit()
    }

    /// Sets the scale, normalized by `Screen.normalizedScale` (clamped to 1 ... 8, rounded to
    /// 1/120); NaN and infinity are ignored.
    public func setScale(_ scale: Double, for screen: Screen) {
        guard let scale = Screen.normalizedScale(scale), owns(screen), screen.scale != scale else { return }
        screen.scale = scale
        pending.append(.screenDidChangeScale(screen.id))
        commit()
    }

    /// Sets the brightness, clamped to 0…1; NaN is ignored.
    public func setBrightness(_ brightness: Double, for screen: Screen) {
        guard !brightness.isNaN else { return }
        let clamped = min(1, max(0, brightness))
        guard owns(screen), screen.brightness != clamped else { return }
        screen.brightness = clamped
        pending.append(.screenDidChangeBrightness(screen.id))
        commit()
    }

    /// Sets how much `screen`'s display crops (`percent`, 0 ... `Screen.overscanRange`'s upper
    /// bound) and how that is compensated for. Posts `screenDidChangeOverscan` when either
    /// changes. With `.insetBounds` the screen's bounds (and usable area) become the safe area;
    /// observers follow as for a mode change.
    public func setOverscan(_ percent: Double, compensation: OverscanCompensation, for screen: Screen)
        throws(ScreenConfigurationError)
    {
        guard owns(screen) else { throw .screenNotConnected(screen.id) }
        guard percent.isFinite, Screen.overscanRange.contains(percent) else { throw .overscanOutOfRange(percent) }
        guard screen.overscan != percent || screen.overscanCompensation != compensation else { return }
        screen.overscan = percent
        screen.overscanCompensation = compensation
        pending.append(.screenDidChangeOverscan(screen.id))
        commit()
    }

    /// Sets whether `screen` mirrors the main screen while it has no visible window.
    public func setMirroring(_ mirrorsWhenEmpty: Bool, for screen: Screen) {
        guard owns(screen), screen.mirrorsWhenEmpty != mirrorsWhenEmpty else { return }
        screen.mirrorsWhenEmpty = mirrorsWhenEmpty
        commit()
    }

    /// Moves `screen` in the global layout. Screens are never rearranged automatically.
    public func setOrigin(_ origin: Point, for screen: Screen) {
        var rounded = Rect.zero
        rounded.origin = origin
        guard owns(screen), screen.origin != rounded.origin else { return }
        screen.origin = rounded.origin
        pending.append(.screenDidMove(screen.id))
        commit()
    }

    /// Sets the usable area (the screen minus exclusive zones), in the same global coordinates as
    /// `bounds`; it is clipped to the bounds whenever it is read. nil restores the whole screen.
    public func setUsableArea(_ area: Rect?, for screen: Screen) {
        guard owns(screen) else { return }
        let local = area.map { $0.offsetBy(dx: -screen.bounds.x, dy: -screen.bounds.y) }
        let before = screen.usableArea
        screen.usableAreaInScreen = local
        guard screen.usableArea != before else { return }
        pending.append(.screenDidChangeUsableArea(screen.id))
        commit()
    }

    // MARK: Windows

    /// Creates a hidden window at the front of its level, on `screen` (when connected) or the main
    /// screen, with frame (0, 0, 0×0).
    @discardableResult
    public func createWindow(
        appID: String = "", title: String = "", pid: Int32 = 0, level: WindowLevel = .normal,
        canBecomeKey: Bool = true, screen: Screen? = nil
    ) -> Window {
        let target = screen.flatMap { owns($0) ? $0 : nil } ?? mainScreen
        let window = Window(
            id: WindowID(nextWindowNumber), appID: appID, title: title, pid: pid, level: level,
            canBecomeKey: canBecomeKey, screen: target, manager: self)
        nextWindowNumber += 1
        windows.insert(window, at: frontIndex(of: level))
        window.stackingStamp = takeFrontStamp()
        pending.append(.windowDidOpen(window.id))
        commit()
        return window
    }

    /// Shows `window` and orders it front of its level; then, if the policy agrees (by default:
    /// when `makeKey` is true, i.e. `makeKeyAndVisible`), makes it key.
    /// Posts `windowDidBecomeVisible` (or `windowDidChangeStacking` if it was already visible and
    /// moved), then `windowDidResignKey(old)`, then `windowDidBecomeKey(window)`.
    public func show(_ window: Window, makeKey: Bool = true) {
        guard owns(window) else { return }
        if window.isMinimized {
            window.isMinimized = false
            pending.append(.windowDidChangeMinimized(window.id, false))
        }
        if window.isHidden {
            window.isHidden = false
            window.wasEverShown = true
            let family = raiseFamily(window)
            pending.append(.windowDidBecomeVisible(window.id))
            postStacking(family.others)
        } else {
            postStacking(raiseFamily(window).all)
        }
        if keyWindow !== window, isEligibleForKey(window), !isKeyHeld(against: window),
            policy.shouldMakeKeyOnShow(window, requested: makeKey, manager: self)
        {
            decidedByPolicy { requestKey(for: window) }
        }
        keepKeyAboveModalParent()
        commit()
    }

    /// Hides `window`. If it was key: `windowDidResignKey`, `windowDidBecomeHidden`, then
    /// `windowDidBecomeKey` for the policy's successor (if any).
    public func hide(_ window: Window) {
        guard owns(window), !window.isHidden else { return }
        queueHide(window)
        commit()
    }

    private func queueHide(_ window: Window) {
        let wasKey = keyWindow === window
        if wasKey { changeKey(to: nil) }
        window.isHidden = true
        pending.append(.windowDidBecomeHidden(window.id))
        if wasKey { passKey(after: window) }
    }

    /// Removes `window` for good. Posts, as they apply: `windowDidResignKey`,
    /// `windowDidBecomeHidden`, `windowDidClose`, then `windowDidBecomeKey` for the successor.
    public func close(_ window: Window) {
        guard owns(window) else { return }
        let wasKey = keyWindow === window
        if wasKey { changeKey(to: nil) }
        if !window.isHidden {
            window.isHidden = true
            pending.append(.windowDidBecomeHidden(window.id))
        }
        windows.removeAll { $0 === window }
        window.storedParent?.childCount -= 1
        window.storedParent?.modalChildren[ObjectIdentifier(window)] = nil
        window.modalChildren.removeAll()
        window.isClosed = true
        pending.append(.windowDidClose(window.id))
        if wasKey { passKey(after: window) }
        window.screen = nil
        window.manager = nil
        commit()
    }

    /// An explicit request to make `window` key (UIKit's `makeKeyWindow`), honoured under every
    /// policy when the window is eligible (visible, `canBecomeKey`, on a connected screen).
    /// Returns whether `window` is key afterwards.
    @discardableResult
    public func makeKey(_ window: Window) -> Bool {
        guard isEligibleForKey(window), !isKeyHeld(against: window) else { return false }
        requestKey(for: window)
        commit()
        return keyWindow === window
    }

    /// Tells observers that a request to make `window` key was refused (by the focus rule, the
    /// lock, a window holding key, the window's own eligibility, the delegate): posts only
    /// `keyRequestWasRefused(window)`, under the current cause, and changes nothing.
    public func refuseKey(_ window: Window) {
        guard owns(window) else { return }
        pending.append(.keyRequestWasRefused(window.id))
        commit()
    }

    /// The key window gives up key status; no other window becomes key.
    public func resignKey() {
        guard keyWindow != nil else { return }
        changeKey(to: nil)
        commit()
    }

    /// Locks the session: the key window (if any) resigns and is remembered, then
    /// `sessionDidLock`. While locked no window becomes key (shows, clicks, `makeKey`, the
    /// policy's successors are all refused); everything else (showing, hiding, closing, moving,
    /// stacking) goes on. Locking a locked session changes nothing.
    public func lock() {
        guard !isLocked else { return }
        keyWindowBeforeLock = keyWindow
        changeKey(to: nil)
        isLocked = true
        pending.append(.sessionDidLock)
        commit()
    }

    /// Unlocks the session: `sessionDidUnlock`, then the window that was key when it locked
    /// becomes key again if it still may be; if it was hidden or closed meanwhile, the policy's
    /// successor to it does (no window when none was key). Unlocking an unlocked session changes
    /// nothing.
    public func unlock() {
        guard isLocked else { return }
        isLocked = false
        pending.append(.sessionDidUnlock)
        if let old = keyWindowBeforeLock {
            keyWindowBeforeLock = nil
            if isEligibleForKey(old) {
                requestKey(for: old)
            } else {
                passKey(after: old)
            }
        }
        commit()
    }

    /// Moves `window` in front of the other windows of its level, its descendants (children,
    /// theirs, and so on: `WindowFamily`) directly above it, the modal chain blocking it last.
    /// Posts `windowDidChangeStacking` for each window that moved: `window` first, then the
    /// others back to front.
    public func orderFront(_ window: Window) {
        guard owns(window) else { return }
        postStacking(raiseFamily(window).all)
        commit()
    }

    /// Moves `window` behind the other windows of its level, its descendants with it, directly
    /// above it (each behind the rest of its own level). Posts as `orderFront`.
    public func orderBack(_ window: Window) {
        guard owns(window) else { return }
        if window.childCount > 0 || WindowFamily.ancestor(of: window, atLevelOf: window) != nil {
            let family = WindowFamily(of: window, in: windows, front: false)
            windows = family.order
            for member in family.members.reversed() {
                member.stackingStamp = nextBackStamp
                nextBackStamp -= 1
            }
            postStacking(FamilyMove(window: window, moved: family.moved).all)
        } else if lower(window) {
            postStacking([window])
        }
        commit()
    }

    /// Moves `window` to `other`'s level, directly in front of `other` (a menu over the window it
    /// belongs to): `windowDidChangeLevel` when the level changes, `windowDidChangeStacking` when
    /// it moves. Key status does not change. Nothing happens when either window is not managed
    /// here or they are the same window.
    public func order(_ window: Window, above other: Window) {
        guard owns(window), owns(other), window !== other else { return }
        let from = window.level
        guard let index = windows.firstIndex(where: { $0 === window }) else { return }
        windows.remove(at: index)
        window.level = other.level
        let target = (windows.firstIndex { $0 === other } ?? windows.count - 1) + 1
        windows.insert(window, at: target)
        if from != window.level { pending.append(.windowDidChangeLevel(window.id, from: from, to: window.level)) }
        if target != index || from != window.level { pending.append(.windowDidChangeStacking(window.id)) }
        commit()
    }

    /// Moves `window` to `level`, at the front of that level. Key status does not change.
    public func setLevel(_ window: Window, _ level: WindowLevel) {
        guard owns(window), window.level != level else { return }
        let from = window.level
        windows.removeAll { $0 === window }
        window.level = level
        windows.insert(window, at: frontIndex(of: level))
        window.stackingStamp = takeFrontStamp()
        pending.append(.windowDidChangeLevel(window.id, from: from, to: level))
        commit()
    }

    /// Sets whether `window` may become key. Turning it off for the key window resigns it and
    /// passes key as when it is hidden.
    public func setCanBecomeKey(_ window: Window, _ canBecomeKey: Bool) {
        guard owns(window), window.canBecomeKey != canBecomeKey else { return }
        window.canBecomeKey = canBecomeKey
        if !canBecomeKey, keyWindow === window {
            changeKey(to: nil)
            passKey(after: window)
        }
        keepKeyAboveModalParent()
        commit()
    }

    /// Sets whether `window` holds key status exclusively (`Window.holdsKey`). Turning it on for
    /// an eligible window makes it key at once (unless another window holds key); turning it off
    /// leaves key where it is. Hiding, closing or `setCanBecomeKey(false)` still pass key on.
    public func setHoldsKey(_ window: Window, _ holds: Bool) {
        guard owns(window), window.holdsKey != holds else { return }
        window.holdsKey = holds
        if holds, keyWindow !== window, isEligibleForKey(window), !isKeyHeld(against: window) {
            requestKey(for: window)
        }
        commit()
    }

    /// Whether the key window holds key against `window` (another window taking it).
    private func isKeyHeld(against window: Window) -> Bool {
        guard let key = keyWindow, key !== window, key.holdsKey else { return false }
        return isEligibleForKey(key)
    }

    /// Moves `window` to `screen` (`windowDidMoveToScreen`) and, when `origin` is given, to that
    /// origin in the new screen's coordinates (`windowDidChangeFrame`). Without `origin` the frame
    /// is kept as it is, relative to the new screen. Returns false when refused.
    @discardableResult
    public func move(_ window: Window, to screen: Screen, origin: Point? = nil) -> Bool {
        guard owns(window), owns(screen) else { return false }
        if window.screen !== screen {
            let from = window.screen?.id
            window.screen = screen
            pending.append(.windowDidMoveToScreen(window.id, from: from, to: screen.id))
        }
        if let origin {
            var frame = window.frame
            frame.origin = origin
            applyFrame(frame, to: window)
        }
        commit()
        return true
    }

    /// Sets `window`'s frame in its screen's coordinates. Negative sizes become 0; coordinates
    /// and sizes are clamped to ±`Coordinate.limit` (what a client's numbers may reach).
    public func setFrame(_ window: Window, _ rect: Rect) {
        guard owns(window) else { return }
        applyFrame(rect, to: window)
        commit()
    }

    // MARK: Parents and modal windows

    /// Makes `parent` the parent of `window` (nil: no parent), as xdg_toplevel.set_parent and
    /// xdg-foreign's set_parent_of ask. Refused (false, nothing posted) when `parent` is `window`
    /// or one of its descendants (a cycle), or is closed or another manager's. Posts
    /// `windowDidChangeParent(window, from:, to:)` when the parent changes; if `window` is a
    /// shown modal window and its new parent was key, key moves to it. Nothing moves in the
    /// stack (a shell orders a child front when it gets a shown parent); from then on the window
    /// moves with its parent (`orderFront`, `orderBack`). The cycle check walks up
    /// from `parent` (as deep as its chain of ancestors, without recursion).
    @discardableResult
    public func setParent(_ window: Window, _ parent: Window?) -> Bool {
        guard owns(window) else { return false }
        if let parent {
            guard owns(parent) else { return false }
            var ancestor: Window? = parent
            while let a = ancestor {
                if a === window { return false }
                ancestor = a.parent
            }
        }
        let old = window.parent
        guard old !== parent else { return true }
        if window.isModal {
            window.storedParent?.modalChildren[ObjectIdentifier(window)] = nil
            parent?.modalChildren[ObjectIdentifier(window)] = WeakWindow(window)
        }
        window.storedParent?.childCount -= 1
        parent?.childCount += 1
        window.storedParent = parent
        pending.append(.windowDidChangeParent(window.id, from: old?.id, to: parent?.id))
        keepKeyAboveModalParent()
        commit()
        return true
    }

    /// Sets whether `window` is modal for its parent (`Window.isModal`). Posts
    /// `windowDidChangeModal(window, isModal)` when it changes; a window made modal while its
    /// parent (or an ancestor it now blocks) is key takes key from it.
    public func setModal(_ window: Window, _ isModal: Bool) {
        guard owns(window), window.isModal != isModal else { return }
        window.isModal = isModal
        window.storedParent?.modalChildren[ObjectIdentifier(window)] = isModal ? WeakWindow(window) : nil
        pending.append(.windowDidChangeModal(window.id, isModal))
        keepKeyAboveModalParent()
        commit()
    }

    /// Names `window` (`Window.title`). Posts `windowDidChangeTitle(window)` when it changes once
    /// the window was ever shown (`wasEverShown`: a taskbar still lists it while it is minimized or
    /// hidden); before its first show the title is news with its `windowDidBecomeVisible`.
    public func setTitle(_ window: Window, _ title: String) {
        guard owns(window), window.title != title else { return }
        window.title = title
        guard window.wasEverShown else { return }
        pending.append(.windowDidChangeTitle(window.id))
        commit()
    }

    /// Sets `window`'s application id (`Window.appID`). Posts `windowDidChangeAppID(window)` when
    /// it changes once the window was ever shown, as `setTitle` does.
    public func setAppID(_ window: Window, _ appID: String) {
        guard owns(window), window.appID != appID else { return }
        window.appID = appID
        guard window.wasEverShown else { return }
        pending.append(.windowDidChangeAppID(window.id))
        commit()
    }

    /// Sets `window`'s process id (`Window.pid`). Posts `windowDidChangePID(window)` when it
    /// changes once the window was ever shown, as `setTitle` does.
    public func setPID(_ window: Window, _ pid: Int32) {
        guard owns(window), window.pid != pid else { return }
        window.pid = pid
        guard window.wasEverShown else { return }
        pending.append(.windowDidChangePID(window.id))
        commit()
    }

    // MARK: Window state

    /// Maximizes `window` or ends that (`Window.isMaximized`). Posts
    /// `windowDidChangeMaximized(window, isMaximized)` when it changes. The frame does not change
    /// here: a shell asks its client for the state's size (`configuredSize(of:)`) and places what
    /// the client draws (`frame(for:in:size:)`). Leaving the normal state saves the restore frame
    /// (`saveRestoreFrame`).
    public func setMaximized(_ window: Window, _ isMaximized: Bool) {
        guard owns(window), window.isMaximized != isMaximized else { return }
        saveRestoreFrame(window)
        window.isMaximized = isMaximized
        pending.append(.windowDidChangeMaximized(window.id, isMaximized))
        commit()
    }

    /// Makes `window` fullscreen (on `screen` when given: it moves there first,
    /// `windowDidMoveToScreen`) or ends that (`Window.isFullscreen`). Posts
    /// `windowDidChangeFullscreen(window, isFullscreen)` when it changes; otherwise as
    /// `setMaximized`.
    public func setFullscreen(_ window: Window, _ isFullscreen: Bool, on screen: Screen? = nil) {
        guard owns(window) else { return }
        if isFullscreen, let screen, owns(screen), window.screen !== screen {
            let from = window.screen?.id
            window.screen = screen
            pending.append(.windowDidMoveToScreen(window.id, from: from, to: screen.id))
        }
        if window.isFullscreen != isFullscreen {
            saveRestoreFrame(window)
            window.isFullscreen = isFullscreen
            pending.append(.windowDidChangeFullscreen(window.id, isFullscreen))
        }
        commit()
    }

    /// A window leaving the normal state keeps the frame it goes back to (`Window.restoreFrame`)
    /// when it has one (it is shown or minimized) and none is kept yet (a window maximized again
    /// before its client drew the restored frame keeps the frame from before).
    private func saveRestoreFrame(_ window: Window) {
        guard window.state == .normal, window.restoreFrame == nil, !window.isHidden || window.isMinimized else {
            return
        }
        window.restoreFrame = window.frame
    }

    /// The shell placed `window`'s restored frame (its client drew the normal state): the saved
    /// frame is forgotten. Posts nothing (the frame's change says it); does nothing unless the
    /// window is normal.
    public func forgetRestoreFrame(_ window: Window) {
        guard owns(window), window.state == .normal else { return }
        window.restoreFrame = nil
    }

    /// Sets the frame `window` goes back to when it leaves maximized and fullscreen
    /// (`Window.restoreFrame`), for a shell that shows a window for the first time already in one
    /// of those states (an X window mapped with `_NET_WM_STATE_MAXIMIZED_*`: where the placement
    /// policy would have put it). Posts nothing.
    public func setRestoreFrame(_ window: Window, _ frame: Rect?) {
        guard owns(window) else { return }
        window.restoreFrame = frame.map { Coordinate.clamped($0) }
    }

    /// Minimizes `window` (xdg_toplevel.set_minimized, X11's iconic state, a taskbar): it is
    /// hidden and keeps its state; the next `show` brings it back. Posts
    /// `windowDidChangeMinimized(window, true)`, then what `hide` posts.
    public func minimize(_ window: Window) {
        guard owns(window), !window.isMinimized else { return }
        window.isMinimized = true
        pending.append(.windowDidChangeMinimized(window.id, true))
        if !window.isHidden { queueHide(window) }
        commit()
    }

    /// Returns `window` to the state of a new window (its shell unmapped it): normal, no restore
    /// frame, not minimized. Posts `windowDidChangeMinimized(false)`,
    /// `windowDidChangeFullscreen(false)` and `windowDidChangeMaximized(false)` for what changes.
    public func resetState(_ window: Window) {
        guard owns(window) else { return }
        window.restoreFrame = nil
        if window.isMinimized {
            window.isMinimized = false
            pending.append(.windowDidChangeMinimized(window.id, false))
        }
        if window.isFullscreen {
            window.isFullscreen = false
            pending.append(.windowDidChangeFullscreen(window.id, false))
        }
        if window.isMaximized {
            window.isMaximized = false
            pending.append(.windowDidChangeMaximized(window.id, false))
        }
        commit()
    }

    /// The size a shell asks `window`'s client for in its state: the placement policy's
    /// maximized or fullscreen frame's size on the window's screen, the restore frame's size
    /// while a normal window still has one, nil when the size is the client's own.
    public func configuredSize(of window: Window) -> Size? {
        if let placed = placedFrame(of: window) { return placed.size }
        return window.state == .normal ? window.restoreFrame?.size : nil
    }

    /// The frame the placement policy gives `window` in its state on its screen (the work area
    /// when maximized, the screen when fullscreen); nil for a normal window or one without a
    /// screen. It follows the screen: after a usable area or mode change it is the new one.
    public func placedFrame(of window: Window) -> Rect? {
        guard let screen = window.screen else { return nil }
        switch window.state {
        case .normal: return nil
        case .maximized: return placement.maximizedFrame(for: window, on: screen)
        case .fullscreen: return placement.fullscreenFrame(for: window, on: screen)
        }
    }

    /// `window`'s frame when its client drew `size` in `state` (the state the client drew, which
    /// lags `Window.state` until it answers): at the placed frame's origin when maximized or
    /// fullscreen, the placement policy's restored frame while a normal window has a restore
    /// frame, else where the window is.
    public func frame(for window: Window, in state: WindowState, size: Size) -> Rect {
        if state != .normal, let screen = window.screen {
            let placed =
                state == .maximized
                ? placement.maximizedFrame(for: window, on: screen) : placement.fullscreenFrame(for: window, on: screen)
            return Rect(x: placed.x, y: placed.y, width: size.width, height: size.height)
        }
        if state == .normal, let saved = window.restoreFrame {
            return placement.restoredFrame(for: window, saved: saved, size: size)
        }
        return Rect(x: window.frame.x, y: window.frame.y, width: size.width, height: size.height)
    }

    /// The window that takes key in `window`'s place: the innermost of the chain of shown modal
    /// windows below it (its frontmost modal child that may be key, that one's, and so on), or
    /// nil when no modal child of `window` may be key. Iterative: a chain of any depth costs one
    /// step per window in it, each step a look through that window's modal children.
    public func modalBlocker(of window: Window) -> Window? {
        var current = window
        while let next = frontmostBlockingChild(of: current) {
            current = next
        }
        return current === window ? nil : current
    }

    /// Orders `window` front with its descendants (`WindowFamily`), the chain of modal windows
    /// blocking it last, so what is made key in its place is not left behind it. Returns whether
    /// `window` moved, and the other windows that moved, back to front.
    private func raiseFamily(_ window: Window) -> FamilyMove {
        var chain: [Window] = []
        var current = window
        while let modal = frontmostBlockingChild(of: current) {
            chain.append(modal)
            current = modal
        }
        guard window.childCount > 0 else {
            return FamilyMove(window: window, moved: raise(window) ? [window] : [])
        }
        let family = WindowFamily(of: window, in: windows, front: true, chain: chain)
        windows = family.order
        for member in family.members { member.stackingStamp = takeFrontStamp() }
        return FamilyMove(window: window, moved: family.moved)
    }

    /// The windows a family's move moved: the window itself (when it moved) and the others.
    private struct FamilyMove {
        let windowMoved: Bool
        /// The other windows that moved, back to front.
        let others: [Window]
        /// The window first (when it moved), then the others.
        let all: [Window]

        init(window: Window, moved: [Window]) {
            windowMoved = moved.contains { $0 === window }
            others = moved.filter { $0 !== window }
            all = (windowMoved ? [window] : []) + others
        }
    }

    private func postStacking(_ windows: [Window]) {
        for window in windows { pending.append(.windowDidChangeStacking(window.id)) }
    }

    /// The frontmost modal child of `window` that may be key (stacking by level, then stamp).
    private func frontmostBlockingChild(of window: Window) -> Window? {
        var best: Window?
        for entry in window.modalChildren.values {
            guard let child = entry.window, isEligibleForKey(child) else { continue }
            if let b = best, (b.level, b.stackingStamp) > (child.level, child.stackingStamp) { continue }
            best = child
        }
        return best
    }

    // MARK: Input offered to the policy

    /// A click (button press) landed in `window`: the policy may order it front and make it key.
    public func pointerDidClick(_ window: Window) {
        guard owns(window), !window.isHidden else { return }
        if policy.shouldOrderFrontOnClick(window, manager: self) {
            decidedByPolicy { postStacking(raiseFamily(window).all) }
        }
        if keyWindow !== window, isEligibleForKey(window), !isKeyHeld(against: window),
            policy.shouldMakeKeyOnClick(window, manager: self)
        {
            decidedByPolicy { requestKey(for: window) }
        }
        commit()
    }

    /// The pointer entered `window`: the policy may make it key.
    public func pointerDidEnter(_ window: Window) {
        guard owns(window), keyWindow !== window, isEligibleForKey(window), !isKeyHeld(against: window),
            policy.shouldMakeKeyOnPointerEnter(window, manager: self)
        else { return }
        decidedByPolicy { requestKey(for: window) }
        commit()
    }

    // MARK: Internals

    func owns(_ window: Window) -> Bool {
        window.manager === self && !window.isClosed
    }

    func owns(_ screen: Screen) -> Bool {
        screen.manager === self && screen.isConnected
    }

    func computeMirroring(of screen: Screen) -> Bool {
        guard owns(screen), screen.mirrorsWhenEmpty, mainScreen !== screen else { return false }
        return !windows.contains { !$0.isHidden && $0.screen === screen }
    }

    /// Resigns the current key window (if any) and makes `new` key, posting resign then become.
    private func changeKey(to new: Window?) {
        guard keyWindow !== new else { return }
        if let old = keyWindow {
            keyWindow = nil
            pending.append(.windowDidResignKey(old.id))
        }
        if let new, !isLocked {
            keyWindow = new
            pending.append(.windowDidBecomeKey(new.id))
        }
    }

    /// Asks the policy who inherits key status from `old` and applies an eligible answer.
    private func passKey(after old: Window) {
        guard keyWindow == nil, let successor = policy.successor(afterLosing: old, manager: self),
            successor !== old, isEligibleForKey(successor)
        else { return }
        inStep(.successor, decidedBy: policy.name) { requestKey(for: successor) }
    }

    /// Runs `body`, a step the manager takes on its own inside a transaction, with a cause of
    /// `kind` that keeps the request and requester of the transaction's cause.
    private func inStep(_ kind: ChangeCause.Kind, decidedBy: String, _ body: () -> Void) {
        let outer = pending.cause
        pending.cause = ChangeCause(
            kind, request: outer?.request ?? "", requester: outer?.requester ?? "", decidedBy: decidedBy,
            requestedAt: outer?.requestedAt ?? 0)
        defer { pending.cause = outer }
        body()
    }

    /// Runs `body`, what the policy agreed to, with the policy named as what decided when the
    /// transaction's cause names nothing (`ChangeCause.decidedBy`).
    private func decidedByPolicy(_ body: () -> Void) {
        guard let outer = pending.cause, outer.decidedBy.isEmpty else { return body() }
        pending.cause?.decidedBy = policy.name
        defer { pending.cause = outer }
        body()
    }

    /// Makes `window` key, or the modal window blocking it if the policy routes the request
    /// there (`shouldRouteKey`); nothing if the policy refuses. The caller checked `window`.
    private func requestKey(for window: Window) {
        guard let modal = modalBlocker(of: window) else {
            changeKey(to: window)
            return
        }
        guard policy.shouldRouteKey(to: modal, blocking: window, manager: self), !isKeyHeld(against: modal) else {
            return
        }
        inStep(.modal, decidedBy: policy.name) { changeKey(to: modal) }
    }

    /// The rule no policy breaks: the key window is never blocked by a shown modal descendant
    /// (one shown, made modal or given its parent while the parent was key). Key moves to the
    /// innermost blocker; a window holding key keeps it.
    private func keepKeyAboveModalParent() {
        guard let key = keyWindow, !key.holdsKey, let modal = modalBlocker(of: key) else { return }
        inStep(.modal, decidedBy: "model") { changeKey(to: modal) }
    }

    private func applyFrame(_ rect: Rect, to window: Window) {
        let clean = Coordinate.clamped(rect)
        guard clean != window.frame else { return }
        let from = window.frame
        window.frame = clean
        pending.append(.windowDidChangeFrame(window.id, from: from, to: clean))
    }

    /// Where a window of `level` goes to be in front of its level.
    private func frontIndex(of level: WindowLevel) -> Int {
        // From the front end (the list is sorted by level, and most windows go in at or near
        // the front): a new window costs no walk over the others.
        var index = windows.count
        while index > 0, windows[index - 1].level > level { index -= 1 }
        return index
    }

    /// Where a window of `level` goes to be behind its level.
    private func backIndex(of level: WindowLevel) -> Int {
        windows.firstIndex { $0.level >= level } ?? windows.count
    }

    /// Moves `window` to the front of its level; true if it moved.
    private func raise(_ window: Window) -> Bool {
        // Looked for from the front end, where the windows shown and raised most recently are.
        guard let index = windows.lastIndex(where: { $0 === window }) else { return false }
        windows.remove(at: index)
        let target = frontIndex(of: window.level)
        windows.insert(window, at: target)
        window.stackingStamp = takeFrontStamp()
        return target != index
    }

    /// Moves `window` to the back of its level; true if it moved.
    private func lower(_ window: Window) -> Bool {
        guard let index = windows.lastIndex(where: { $0 === window }) else { return false }
        windows.remove(at: index)
        let target = backIndex(of: window.level)
        windows.insert(window, at: target)
        window.stackingStamp = nextBackStamp
        nextBackStamp -= 1
        return target != index
    }

    private func takeFrontStamp() -> Int64 {
        defer { nextFrontStamp += 1 }
        return nextFrontStamp
    }

    /// Ends a transaction: appends mirroring changes, then posts everything pending, in order.
    private func commit() {
        for screen in screens {
            let mirroring = computeMirroring(of: screen)
            if mirroring != screen.postedMirroring {
                screen.postedMirroring = mirroring
                pending.append(.screenDidChangeMirroring(screen.id, mirroring))
            }
        }
        let batch = pending.items
        pending.items.removeAll()
        for (notification, cause) in batch {
            notifications.post(notification, cause: cause)
        }
    }
}

/// A transaction's notifications, each with the cause it was posted under.
private struct PendingNotifications {
    var items: [(WindowServerNotification, ChangeCause?)] = []
    /// The cause a notification appended now carries: the manager's current one, or a step's.
    var cause: ChangeCause?

    mutating func append(_ notification: WindowServerNotification) {
        items.append((notification, cause))
    }
}
