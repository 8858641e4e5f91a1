import StrataModel

/// `WM_TRANSIENT_FOR` and `_NET_WM_STATE_MODAL` in the model: an X dialog is the child of the
/// X window it is transient for, as xdg_toplevel.set_parent makes a Wayland dialog one
/// (`WindowManager.setParent`), and modal for it as xdg_dialog_v1.set_modal makes one
/// (`WindowManager.setModal`). Only X windows can be named (an X window id): an X dialog over a
/// Wayland window, or the reverse, is never made.
extension X11Window {
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
    /// `_NET_WM_STATE_MODAL` says. A parent that would make a cycle is refused by the model: the
    /// window keeps the parent it had, and the refusal is logged once for the window. A window
    /// given a shown parent it is behind is ordered front (a dialog shows above its window).
    /// Override-redirect windows (menus) are ordered with their parent instead
    /// (`orderAboveParent`), never its children in the model.
    func applyTransientParent() {
        guard !isOverrideRedirect, let model = window, !model.isClosed else { return }
        let windows = wm.compositor.windows
        let parent = transientParentWindow
        if model.parent !== parent {
            if windows.setParent(model, parent) {
                if let parent, parent.isVisible, model.isVisible, model.level == parent.level,
                    let at = windows.windows.firstIndex(where: { $0 === model }),
                    windows.windows[(at + 1)...].contains(where: { $0 === parent })
                {
                    windows.orderFront(model)
                }
            } else if !loggedRefusedParent {
                loggedRefusedParent = true
                wm.log(
                    "strata: Xwayland: window 0x\(String(id, radix: 16))'s WM_TRANSIENT_FOR names window "
                        + "0x\(String(transientFor, radix: 16)), which is transient for it (a cycle): it keeps "
                        + "its parent (logged once per window)")
            }
        }
        if model.isModal != isModal { windows.setModal(model, isModal) }
    }

    /// This window's model window just appeared (its first map, or a map after it closed): the
    /// X windows already transient for it become its children.
    func adoptTransients() {
        guard !isOverrideRedirect, window != nil else { return }
        for other in wm.managedWindows where other.transientFor == id && other !== self {
            other.applyTransientParent()
        }
    }
}
