import StrataModel
import Testing

/// App ids a user names match in any case (`AppIDMatch`), in the level rules too; the exact
/// spelling wins where several fit.
struct AppIDMatchTests {
    @Test func namesMatchInAnyCase() {
        #expect(AppIDMatch.matches("xterm", "XTerm"))
        #expect(AppIDMatch.matches("gtk3-demo", "Gtk3-demo"))
        #expect(!AppIDMatch.matches("gtk3", "Gtk3-demo"))
        #expect(!AppIDMatch.matches("", "foot"))
    }

    @Test func levelRulesApplyInAnyCaseAndTheExactSpellingWins() {
        var rules = LevelRules(levels: ["gtk3-demo": .alert], allowedAppIDs: ["Dock"])
        #expect(rules.configuredLevel(forAppID: "Gtk3-demo") == .alert)
        #expect(rules.decide(requested: .statusBar, appID: "dock") == .granted(.statusBar))
        #expect(rules.decide(requested: .statusBar, appID: "docks") == .denied(.notAllowed))
        #expect(rules.configuredLevel(forAppID: "") == nil)
        rules.levels["Gtk3-demo"] = .statusBar
        rules.levels["GTK3-DEMO"] = .normal
        #expect(rules.configuredLevel(forAppID: "Gtk3-demo") == .statusBar)
        #expect(rules.configuredLevel(forAppID: "gtk3-demo") == .alert)
        // No exact spelling: the first in sorted order, every time.
        #expect(rules.configuredLevel(forAppID: "gTk3-Demo") == .normal)
    }
}
