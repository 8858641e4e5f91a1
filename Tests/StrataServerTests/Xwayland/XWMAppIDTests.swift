import StrataServer
import Testing

/// The one rule for an X window's app id (docs/xwayland.md, "App ids"): WM_CLASS's class, or
/// its instance when the class is empty or missing.
@Suite struct XWMAppIDTests {
    @Test func theClassIsTheAppIDAndTheInstanceStandsInForAnEmptyOne() {
        let cases: [(String, String)] = [
            ("xterm\0XTerm\0", "XTerm"), ("gtk3-demo\0Gtk3-demo\0", "Gtk3-demo"), ("firefox\0firefox\0", "firefox"),
            ("only-instance\0\0", "only-instance"), ("only-instance\0", "only-instance"), ("no-nul", "no-nul"),
            ("\0Class\0", "Class"), ("", ""), ("a\0b\0c\0", "b"),
        ]
        for (wmClass, appID) in cases {
            #expect(XWM.appID(wmClass: Array(wmClass.utf8)) == appID, "\(wmClass.debugDescription)")
        }
    }
}
