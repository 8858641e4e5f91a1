import Foundation
import Testing

/// Qt 5's class wizard on a scaled screen (2 and 1.5) and on a second screen, on Wayland and
/// under Xwayland: its buttons placed inside its frame with the window under their centres
/// (`ScaledLocatorEndToEndTests.expectInItsWindow`), clicked with the pointer through to Finish;
/// the wizard writes its header, which only a click that landed on each button can make happen.
@Suite(.serialized) struct ScaledQtLocatorEndToEndTests {
    typealias Setting = ScaledLocatorEndToEndTests.Setting

    static let ready =
        AccessibilityBusEndToEndTests.hasBus && QtLocatorEndToEndTests.hasClassWizard
        && QtLocatorEndToEndTests.hasQt5Wayland

    static func clickThroughTheWizard(_ setting: Setting, platform: String) async throws {
        let session = try await ScaledLocatorEndToEndTests.start(
            setting,
            [
                "sh", "-c",
                "QT_QPA_PLATFORM=\(platform) TMPDIR=\"$XDG_RUNTIME_DIR\" exec '\(QtLocatorEndToEndTests.classWizard)'",
            ],
            window: "classwizard")
        let next = ["--window", "classwizard", "--role", "button", "--name", "Next >"]
        _ = try await ScaledLocatorEndToEndTests.expectInItsWindow(session, next, screen: setting.screen)
        try await session.ctl(["click"] + next)
        // The page turned: its class name field is shown; typed into, as a user would.
        let name = ["--window", "classwizard", "--role", "entry", "--name", "Class name:"]
        try await session.ctl(["find", "--wait", "30"] + name)
        try await session.ctl(["type-into"] + name + ["Greeter"])
        _ = try await session.ctl(["find", "--wait", "20", "--text", "Greeter"] + name)
        for field in ["Macro name:", "Output directory:"] {
            try await session.ctl(["click"] + next)
            try await session.ctl([
                "find", "--wait", "20", "--window", "classwizard", "--role", "entry", "--name", field,
            ])
        }
        try await session.ctl(["click"] + next)
        let finish = ["--window", "classwizard", "--role", "button", "--name", "Finish"]
        _ = try await ScaledLocatorEndToEndTests.expectInItsWindow(session, finish, screen: setting.screen)
        try await session.ctl(["click"] + finish)
        let header = await StrataRun.poll(timeout: 20) { () -> String? in
            let text = (try? String(contentsOfFile: session.run.runtimeDirectory + "/greeter.h", encoding: .utf8)) ?? ""
            return text.contains("#endif") ? text : nil
        }
        #expect(header?.contains("class Greeter") == true, "the wizard wrote no greeter.h")
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: ready), arguments: Setting.allCases)
    func clickingThroughQt5sWizardOnWaylandLands(_ setting: Setting) async throws {
        try await Self.clickThroughTheWizard(setting, platform: "wayland")
    }

    @Test(.enabled(if: ready && StrataRun.isInstalled("Xwayland")), arguments: Setting.allCases)
    func clickingThroughQt5sWizardUnderXwaylandLands(_ setting: Setting) async throws {
        try await Self.clickThroughTheWizard(setting, platform: "xcb")
    }
}
