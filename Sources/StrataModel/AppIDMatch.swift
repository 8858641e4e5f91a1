/// How a name a user gives (a control command's window, `--level APPID=…`, `--allow-levels`,
/// `--record-protocol`) names app ids: in any case, because one application's app id differs in
/// case by path (an X11 client's `WM_CLASS` class `Gtk3-demo` or `XTerm`, `gtk3-demo` on Wayland;
/// docs/xwayland.md, "App ids"). Where several spellings fit, the exact one wins.
public enum AppIDMatch {
    /// The form two app ids are compared in.
    public static func folded(_ appID: String) -> String { appID.lowercased() }

    /// Whether `name` names `appID`.
    public static func matches(_ name: String, _ appID: String) -> Bool {
        name == appID || folded(name) == folded(appID)
    }
}
