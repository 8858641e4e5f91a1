import Foundation
import Glibc
import Testing

/// strata-ctl's locators on Qt: a form filled and submitted by name, on Wayland and under
/// Xwayland, checked by what the application does (the file Qt 5's class wizard writes), not by
/// the locator's own say.
@Suite(.serialized) struct QtLocatorEndToEndTests {
    typealias Session = ControlTests.Session

    /// Qt 5's class wizard (Debian's qtbase5-examples): four pages of fields, then Finish writes
    /// `<class>.h` and `<class>.cpp` into the output directory, `$TMPDIR` unless changed.
    static let classWizard = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/dialogs/classwizard/classwizard"
    static let hasClassWizard = FileManager.default.isExecutableFile(atPath: classWizard)
    static let hasQt5Wayland = FileManager.default.fileExists(
        atPath: "/usr/lib/x86_64-linux-gnu/qt5/plugins/platforms/libqwayland-generic.so")

    /// Runs the wizard under `platform` (wayland, xcb) with its output in the session's folder;
    /// fills in the class name through `verb` (press: the accessible actions; click: the
    /// pointer) and returns the header it wrote.
    static func fillTheClassWizard(
        platform: String, verb: String, expecting how: String, strata: [String] = []
    ) async throws -> String {
        let session = try await Session.start(["--accessibility", "--size", "1024x768"] + strata)
        let folder = session.run.root
        try await session.ctl(
            "exec", "--", "sh", "-c",
            Self.atSpiBusOnTheXRoot(platform)
                + "QT_QPA_PLATFORM=\(platform) TMPDIR='\(folder)' exec '\(classWizard)' > '\(folder)/wizard.log' 2>&1")
        let next = ["--window", "classwizard", "--role", "button", "--name", "Next >"]
        let found = try await session.ctl(["find", "--wait", "30"] + next)
        #expect(found.stdout.contains("push button \"Next >\" at "), "\(found.stdout)")
        let first = try await session.ctl([verb] + next)
        #expect(first.stdout.contains(how), "\(first.stdout)")
        // Class Information: the class name (the wizard's Next stays off until it is there).
        let name = ["--window", "classwizard", "--role", "entry", "--name", "Class name:"]
        try await session.ctl(["find", "--wait", "20"] + name)
        let typed = try await session.ctl(["type-into"] + name + ["Greeter"])
        #expect(typed.stdout.contains("then typed 7 characters"), "\(typed.stdout)")
        _ = try await session.ctl(["find", "--wait", "20", "--text", "Greeter"] + name)
        // Code Style Options, Output Files, Conclusion: the defaults, each page waited for (a
        // press returns before Qt turns the page).
        for field in ["Macro name:", "Output directory:"] {
            try await session.ctl([verb] + next)
            try await session.ctl([
                "find", "--wait", "20", "--window", "classwizard", "--role", "entry", "--name", field,
            ])
        }
        try await session.ctl([verb] + next)
        let finish = ["--window", "classwizard", "--role", "button", "--name", "Finish"]
        try await session.ctl(["find", "--wait", "20"] + finish)
        try await session.ctl([verb] + finish)
        let header = await StrataRun.poll(timeout: 20) { () -> String? in
            let text = (try? String(contentsOfFile: folder + "/greeter.h", encoding: .utf8)) ?? ""
            return text.contains("#endif") ? text : nil
        }
        let log = (try? String(contentsOfFile: folder + "/wizard.log", encoding: .utf8)) ?? ""
        #expect(await session.stop().status == 0)
        return try #require(header, "the wizard wrote no greeter.h; its output: \(log)")
    }

    /// For X11 (`xcb`), a shell prelude that checks Strata named its AT-SPI bus on the X root
    /// (`AT_SPI_BUS`), as a desktop session's bus launcher does: Qt 5 under X11 otherwise races
    /// its own lookup of the bus over D-Bus and, losing, never registers its tree. The name must
    /// be the bus the session bus's launcher gives.
    static func atSpiBusOnTheXRoot(_ platform: String) -> String {
        guard platform == "xcb" else { return "" }
        return """
            bus=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus \
              org.a11y.Bus.GetAddress | tr -d ' ' | sed 's/,guid=.*//')
            named=$(xprop -root AT_SPI_BUS | sed -n 's/^AT_SPI_BUS(STRING) = "\\(.*\\)"$/\\1/p')
            [ -n "$bus" ] && [ "$named" = "$bus" ] || { echo "AT_SPI_BUS on the X root: '$named', the bus: '$bus'" >&2; exit 1; }
            """ + "\n"
    }

    /// Qt on Wayland (Strata's server-side decorations: Qt counts from the frame), through the
    /// accessible actions Qt names `Press`.
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && hasClassWizard && hasQt5Wayland))
    func aQt5FormIsFilledAndSubmittedByNameOnWayland() async throws {
        let header = try await Self.fillTheClassWizard(
            platform: "wayland", verb: "press", expecting: "through its accessible action \"Press\"")
        #expect(header.contains("class Greeter"), "\(header)")
    }

    /// Qt drawing its own title bar and borders counts from its content inside them: the
    /// clicks land only when the borders are added (`ToolkitOrigin`).
    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && hasClassWizard && hasQt5Wayland))
    func aQt5FormWithClientSideDecorationsIsFilledWithThePointerOnWayland() async throws {
        let header = try await Self.fillTheClassWizard(
            platform: "wayland", verb: "click", expecting: "through a pointer click at ",
            strata: ["--client-side-decorations"])
        #expect(header.contains("class Greeter"), "\(header)")
    }

    /// Qt 5 under X11 reports screen coordinates as its window-relative ones: each click lands
    /// only when the toplevel's place is taken off (`ToolkitOrigin`).
    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && hasClassWizard && StrataRun.isInstalled("Xwayland")
                && StrataRun.isInstalled("xprop")))
    func aQt5FormIsFilledAndSubmittedWithThePointerUnderXwayland() async throws {
        let header = try await Self.fillTheClassWizard(
            platform: "xcb", verb: "click", expecting: "through a pointer click at ")
        #expect(header.contains("class Greeter"), "\(header)")
    }
}

/// Qt 6 (Debian 12 has no Qt 6 examples): Qt Designer's New Form dialog's Create, then its
/// toolbar's Save, whose file dialog is filled by name; Designer writes the form.
extension QtLocatorEndToEndTests {
    static let designer = "/usr/lib/qt6/bin/designer"
    static let hasDesigner = FileManager.default.isExecutableFile(atPath: designer)
    static let hasQt6Wayland = FileManager.default.fileExists(
        atPath: "/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqwayland-generic.so")

    /// Runs Designer under `platform` with a fresh home; acts through `verb` and returns the form
    /// it saved.
    static func saveADesignerForm(platform: String, verb: String, expecting how: String) async throws -> String {
        let session = try await Session.start(["--accessibility", "--size", "1024x768"])
        let folder = session.run.root
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        try await session.ctl(
            "exec", "--", "sh", "-c",
            Self.atSpiBusOnTheXRoot(platform)
                + "cd '\(folder)' && HOME='\(folder)/home' QT_QPA_PLATFORM=\(platform) exec '\(designer)' > designer.log 2>&1"
        )
        let create = ["--window", "title:New Form*", "--role", "button", "--name", "Create"]
        let found = try await session.ctl(["find", "--wait", "30"] + create)
        #expect(found.stdout.contains("push button \"Create\" at "), "\(found.stdout)")
        let created = try await session.ctl([verb] + create)
        #expect(created.stdout.contains(how), "\(created.stdout)")
        let save = ["--window", "title:Qt Designer", "--role", "push button", "--name", "Save"]
        try await session.ctl(["find", "--wait", "20"] + save)
        try await session.ctl([verb] + save)
        let name = ["--window", "title:Save Form As*", "--role", "entry", "--name", "File name:"]
        try await session.ctl(["find", "--wait", "20"] + name)
        // Into the field with the pointer first: under X11 Qt 6.4 loses the first click into a
        // dialog that opened over the pointer's window (the second lands).
        if verb == "click" { try await session.ctl(["click"] + name) }
        // A bare name, which nothing in the folder starts like: a path would open Qt's completer,
        // whose popup takes the next click to close itself.
        let typed = try await session.ctl(["type-into"] + name + ["form.ui"])
        #expect(typed.stdout.contains("then typed"), "\(typed.stdout)")
        try await session.ctl(["find", "--wait", "20", "--text", "form.ui"] + name)
        try await session.ctl([verb, "--window", "title:Save Form As*", "--role", "push button", "--name", "Save"])
        let form = await StrataRun.poll(timeout: 20) { () -> String? in
            let text = (try? String(contentsOfFile: folder + "/form.ui", encoding: .utf8)) ?? ""
            return text.contains("</ui>") ? text : nil
        }
        let log = (try? String(contentsOfFile: folder + "/designer.log", encoding: .utf8)) ?? ""
        #expect(await session.stop().status == 0)
        return try #require(form, "Designer wrote no form.ui; its output: \(log)")
    }

    @Test(.enabled(if: AccessibilityBusEndToEndTests.hasBus && hasDesigner && hasQt6Wayland))
    func aQt6FileDialogIsFilledAndSubmittedByNameOnWayland() async throws {
        let form = try await Self.saveADesignerForm(
            platform: "wayland", verb: "press", expecting: "through its accessible action \"Press\"")
        #expect(form.contains("<class>Dialog</class>"), "\(form)")
    }

    @Test(
        .enabled(
            if: AccessibilityBusEndToEndTests.hasBus && hasDesigner && StrataRun.isInstalled("Xwayland")
                && StrataRun.isInstalled("xprop")))
    func aQt6FileDialogIsFilledAndSubmittedWithThePointerUnderXwayland() async throws {
        let form = try await Self.saveADesignerForm(
            platform: "xcb", verb: "click", expecting: "through a pointer click at ")
        #expect(form.contains("<class>Dialog</class>"), "\(form)")
    }
}
