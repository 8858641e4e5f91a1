import Foundation
import Testing

/// X transients in the model with real X clients: zenity's `--attach` sets `WM_TRANSIENT_FOR` to
/// an xterm found by `xdotool search --name`; the dialog is the xterm's child in `strata-ctl
/// windows` (JSON `parent`, the PARENT column), and `strata-ctl raise` on the xterm leaves the
/// dialog above it, in front of another xterm started after the dialog.
@Suite("Xwayland transients end to end", .serialized)
struct XwaylandTransientEndToEndTests {
    static let ctl = XwaylandEndToEndTests.ctl

    /// One window of `windows --json`'s reply: id, title, order (0 is frontmost), parent.
    private struct Row: Decodable {
        let id: Int
        let title: String
        let order: Int
        let kind: String
        let parent: Int?
    }

    private struct Reply: Decodable {
        let windows: [Row]
    }

    private static func rows(_ text: Substring) throws -> [Row] {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("{") }, "\(text)")
        return try JSONDecoder().decode(Reply.self, from: Data(line.utf8)).windows
    }

    @Test(
        .enabled(
            if: XwaylandEndToEndTests.installed("xterm", "zenity", "xdotool", "dbus-daemon"),
            "Xwayland or one of xterm, zenity, xdotool, dbus-daemon is not installed"))
    func aZenityDialogAttachedToAnXtermIsItsChildAndStaysAboveItWhenTheXtermIsRaised() async throws {
        let run = try StrataRun(
            ["--backend", "headless", "--size", "800x600"],
            command: [
                "sh", "-c",
                """
                xterm -title P &
                term=$!
                until xdotool search --name '^P$' > /dev/null 2>&1; do sleep 0.05; done
                xid=$(xdotool search --name '^P$' | head -1)
                until \(Self.ctl) windows | grep ' x11' | grep -q ' P '; do sleep 0.05; done
                GDK_BACKEND=x11 \(StrataRun.dbusSessionWords) zenity --question --title=D --text=attached \
                  --attach="$xid" > /dev/null 2>&1 &
                dialog=$!
                until \(Self.ctl) windows --json | grep -q '"parent"'; do sleep 0.05; done
                xterm -title O &
                other=$!
                until \(Self.ctl) windows | grep ' x11' | grep -q ' O '; do sleep 0.05; done
                echo "xid $xid"
                echo ATTACHED; \(Self.ctl) windows --json | tr -d '\\n'; echo
                echo TABLE; \(Self.ctl) windows
                term_id=$(\(Self.ctl) windows | grep ' x11' | grep ' P ' | awk '{print $1}')
                \(Self.ctl) raise "$term_id" > /dev/null
                echo RAISED; \(Self.ctl) windows --json | tr -d '\\n'; echo
                \(Self.ctl) make-key "$term_id" > /dev/null 2>&1
                echo KEYED; \(Self.ctl) windows --json | tr -d '\\n'; echo
                kill $dialog $term $other; wait $dialog $term $other; exit 0
                """,
            ])
        let result = await run.finish(timeout: 90)
        let context = "\(result.stdout)\n\(result.stderr.suffix(2000))"
        let sections = result.stdout.components(separatedBy: "ATTACHED")
        try #require(sections.count == 2, "\(context)")
        let attached = try Self.rows(Substring(sections[1]))
        let term = try #require(attached.first { $0.kind == "x11" && $0.title == "P" }, "\(context)")
        let dialog = try #require(attached.first { $0.kind == "x11" && $0.parent != nil }, "\(context)")
        #expect(dialog.parent == term.id)
        #expect(dialog.title == "D")
        #expect(dialog.order < term.order)
        let other = try #require(attached.first { $0.kind == "x11" && $0.title == "O" }, "\(context)")
        #expect(other.order == 0 && other.parent == nil)
        // The PARENT column (the last) of the dialog's row names the xterm's window id.
        let table = result.stdout.components(separatedBy: "TABLE").last?.components(separatedBy: "RAISED").first ?? ""
        #expect(
            table.split(separator: "\n").contains { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                return columns.first.map(String.init) == String(dialog.id)
                    && columns.last.map(String.init) == String(term.id)
            }, "\(table)")
        // Raised, the xterm is in front of every other window but its dialog, directly above it.
        let raised = try Self.rows(Substring(result.stdout.components(separatedBy: "RAISED").last ?? ""))
        let raisedTerm = try #require(raised.first { $0.id == term.id })
        let raisedDialog = try #require(raised.first { $0.id == dialog.id })
        #expect(raisedDialog.order == 0, "\(context)")
        #expect(raisedTerm.order == 1, "\(context)")
        #expect(raised.first { $0.id == other.id }?.order == 2)
        // Asking for the xterm's key (zenity's question is not modal): the dialog stays above.
        let keyed = try Self.rows(Substring(result.stdout.components(separatedBy: "KEYED").last ?? ""))
        #expect(keyed.first { $0.id == dialog.id }.map(\.order) == 0)
    }
}
