import StrataModel

/// `WM_TRANSIENT_FOR` and `_NET_WM_STATE_MODAL` in the model: an X dialog is the child of the
/// X window it is transient for, as xdg_toplevel.set_parent makes a Wayland dialog one
/// (`WindowManager.setParent`), and modal for it as xdg_dialog_v1.set_modal makes one
/// (`WindowManager.setModal`). Only X windows can be named (an X window id): an X dialog over a
/// Wayland window, or the reverse, is never made.
extension X11Window: MeasuredTreeNode {
    /// The X window this one is linked under while that window's model window is open (a closed
    /// parent's children have none: the model lets them go).
    var measuredParent: X11Window? {
        guard let link = transientLink, let model = link.window, !model.isClosed else { return nil }
        return link
    }

    /// The model window `WM_TRANSIENT_FOR` names: another managed, non-override-redirect X
    /// window of this XWM with an open model window; nil otherwise (none, itself, the root, an
    /// unknown id, a window never mapped or gone).
    var transientParentWindow: Window? {
        guard transientFor != 0, transientFor != id, let parent = wm.window(transientFor), parent !== self,
            !parent.isOverrideRedirect, let model = parent.window, !model.isClosed
        else { return nil }
        return model
    }

    /// Gives the model window the parent `WM_TRANSIENT_FOR` names (nil: none) and the modality
    /// `_NET_WM_STATE_MODAL` says. A parent that would make a cycle (refused by the model) or a
    /// chain of more than `TreeLimits.maxTransientDepth` parents is refused: the window keeps
    /// the parent it had, and the refusal is logged once for the window. A window
    /// given a shown parent it is behind is ordered front (a dialog shows above its window).
    /// Override-redirect windows (menus) are ordered with their parent instead
    /// (`orderAboveParent`), never its children in the model.
    func applyTransientParent() {
        guard !isOverrideRedirect, let model = window, !model.isClosed else { return }
        let windows = wm.compositor.windows
        let parent = transientParentWindow
        awaitParent(parent == nil && transientFor != id ? transientFor : 0)
        if model.parent !== parent {
            if let parent, Self.isTooDeep(below: parent, carrying: subtreeMeasure.height) {
                logRefusedParent("would make a chain of more than \(TreeLimits.maxTransientDepth) parents")
            } else if windows.setParent(model, parent) {
                leaveTransientParent()
                if parent != nil, let link = wm.window(transientFor) {
                    transientLink = link
                    link.childSubtree(self, joins: true)
                }
                if let parent, parent.isVisible, model.isVisible, model.level == parent.level,
                    let at = windows.windows.firstIndex(where: { $0 === model }),
                    windows.windows[(at + 1)...].contains(where: { $0 === parent })
                {
                    windows.orderFront(model)
                }
            } else {
                logRefusedParent("is transient for it (a cycle)")
            }
        }
        if model.isModal != isModal { windows.setModal(model, isModal) }
    }

    /// Whether a window whose own transient tree is `height` levels deep, put under `parent`,
    /// would make a chain of more than `TreeLimits.maxTransientDepth` parents (as for
    /// xdg_toplevel.set_parent). The tree below counts too: links made in any order (a dialog's
    /// dialog mapped before the dialog's own parent) stay within the limit, so each check walks
    /// at most that far up, whatever a client builds.
    private static func isTooDeep(below parent: Window, carrying height: Int) -> Bool {
        var levels = 1 + height
        var ancestor = parent.parent
        while let a = ancestor, levels <= TreeLimits.maxTransientDepth {
            levels += 1
            ancestor = a.parent
        }
        return levels > TreeLimits.maxTransientDepth
    }

    /// Off the transient tree it was linked into: its parent's measure no longer counts it.
    func leaveTransientParent() {
        measuredParent?.childSubtree(self, joins: false)
        transientLink = nil
    }

    private func logRefusedParent(_ reason: String) {
        guard !loggedRefusedParent else { return }
        loggedRefusedParent = true
        wm.log(
            "strata: Xwayland: window 0x\(String(id, radix: 16))'s WM_TRANSIENT_FOR names window "
                + "0x\(String(transientFor, radix: 16)), which \(reason): it keeps its parent (logged once per window)")
    }

    /// Lists this window under `parentID` (0: under none) in the controller's
    /// `transientsAwaitingParent`, off the id it was listed under before.
    private func awaitParent(_ parentID: UInt32) {
        guard parentID != awaitedParent else { return }
        stopAwaitingParent()
        guard parentID != 0 else { return }
        awaitedParent = parentID
        wm.controller.transientsAwaitingParent[parentID, default: []].insert(id)
    }

    /// Off the controller's `transientsAwaitingParent` (the window went, or names another).
    func stopAwaitingParent() {
        guard awaitedParent != 0 else { return }
        let controller = wm.controller
        controller.transientsAwaitingParent[awaitedParent]?.remove(id)
        if controller.transientsAwaitingParent[awaitedParent]?.isEmpty == true {
            controller.transientsAwaitingParent[awaitedParent] = nil
        }
        awaitedParent = 0
    }

    /// This window's model window is there (at each map): the X windows transient for it that
    /// waited for it (`transientsAwaitingParent`) become its children.
    func adoptTransients() {
        guard !isOverrideRedirect, window != nil,
            let waiting = wm.controller.transientsAwaitingParent.removeValue(forKey: id)
        else { return }
        for childID in waiting {
            guard let child = wm.window(childID), child.awaitedParent == id, child !== self else { continue }
            child.awaitedParent = 0
            child.applyTransientParent()
        }
    }
}
