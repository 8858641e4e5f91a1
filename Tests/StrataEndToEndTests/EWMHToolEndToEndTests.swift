import Foundation
import Testing

/// The X tools test suites use (wmctrl, xdotool, xprop) against real X clients (xterm, xclock)
/// under the built `strata`, each result checked against the model (`strata-ctl windows
/// --json`): docs/xwayland.md, "EWMH".
@Suite("EWMH tools end to end", .serialized)
struct EWMHToolEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl") ?? "strata-ctl"

    static func installed(_ programs: String...) -> Bool {
        (["Xwayland", "xterm", "xclock", "wmctrl", "xdotool", "xprop", "xwininfo"] + programs).allSatisfy(
            StrataRun.isInstalled)
    }
    static let missing: Comment = "Xwayland or one of xterm, xclock, wmctrl, xdotool, xprop, xwininfo is not installed"

    /// The X windows of a `strata-ctl windows --json` reply: title → (order front to back, key,
    /// frame).
    private static func model(_ line: Substring) -> [String: (order: Int, key: Bool, frame: [Int])] {
        guard let data = line.data(using: .utf8),
            let reply = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let windows = reply["windows"] as? [[String: Any]]
        else { return [:] }
        var result: [String: (Int, Bool, [Int])] = [:]
        for window in windows where window["kind"] as? String == "x11" {
            guard let title = window["title"] as? String, let order = window["order"] as? Int,
                let frame = window["frame"] as? [String: Int]
            else { continue }
            result[title] = (
                order, window["key"] as? Bool ?? false,
                [frame["x"] ?? -1, frame["y"] ?? -1, frame["width"] ?? -1, frame["height"] ?? -1]
            )
        }
        return result
    }

    /// The line after the marker line `marker` in `text`.
    private static func after(_ marker: String, in text: String) -> Substring? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0 == marker }), index + 1 < lines.count else { return nil }
        return lines[index + 1]
    }

    @Test(.enabled(if: installed(), missing))
    func wmctrlXdotoolAndXpropReadAndDriveXWindowsThroughTheModel() async throws {
        let run = try StrataRun(
            ["--backend", "headless", "--size", "640x480"],
            command: [
                "sh", "-c",
                """
                ctl=\(Self.ctl)
                shown() { $ctl windows --json | grep -q "\\"title\\":\\"$1\\""; }
                xterm -T alpha & alpha=$!
                until shown alpha && wmctrl -l | grep -q ' alpha$'; do sleep 0.05; done
                xclock -title beta & beta=$!
                until shown beta && wmctrl -l | grep -q ' beta$'; do sleep 0.05; done
                echo "== wmctrl -l"; wmctrl -l
                echo "== wmctrl -d"; wmctrl -d
                echo "== stacking"; xprop -root _NET_CLIENT_LIST_STACKING
                echo "== model"; $ctl windows --json
                echo "== search"; xdotool search --name '^alpha$'
                echo "== active"; xdotool getactivewindow
                echo "== desktop"; xdotool get_desktop; xdotool get_desktop_for_window "$(xdotool search --name '^beta$')"
                wmctrl -r alpha -e 0,50,60,300,200
                until $ctl windows --json | grep -q '"height":200,"width":300,"x":50,"y":60'; do sleep 0.05; done
                echo "== moved"; $ctl windows --json
                xwininfo -name alpha | grep -E 'Absolute|Width|Height'
                last=$(printf '0x%x' "$(xdotool search --name '^alpha$')")
                $ctl raise title:alpha
                until xprop -root _NET_CLIENT_LIST_STACKING | grep -q "$last\\$" && \\
                  $ctl windows --json | grep -q '"order":0,[^}]*"title":"alpha"'; do sleep 0.05; done
                echo "== stacking after raise"; xprop -root _NET_CLIENT_LIST_STACKING
                echo "== model after raise"; $ctl windows --json
                wmctrl -c beta
                wait $beta; echo "xclock ended with status $?"
                until ! shown beta; do sleep 0.05; done
                xdotool windowclose "$(xdotool search --name '^alpha$')"
                wait $alpha; echo "xterm ended"
                until ! $ctl windows --json | grep -q '"kind":"x11"'; do sleep 0.05; done
                echo "== after close"; $ctl windows --json; wmctrl -l | grep -c . || true
                """,
            ])
        let result = await run.finish(timeout: 120)
        let out = result.stdout
        let context = "stdout: \(out.suffix(3000))\nstderr: \(result.stderr.suffix(2000))"
        // wmctrl -l: both windows, on desktop 0.
        let listed = out.split(separator: "\n").filter { $0.hasPrefix("0x") }
        #expect(listed.contains { $0.hasSuffix(" alpha") && $0.split(separator: " ")[1] == "0" }, "\(context)")
        #expect(listed.contains { $0.hasSuffix(" beta") && $0.split(separator: " ")[1] == "0" })
        let ids = Dictionary(
            listed.compactMap { line -> (UInt32, String)? in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count >= 4, let id = UInt32(parts[0].dropFirst(2), radix: 16) else { return nil }
                return (id, String(parts.last!))
            }, uniquingKeysWith: { a, _ in a })
        // wmctrl -d: one desktop, the whole screen as work area.
        #expect(out.contains("0  * DG: 640x480  VP: 0,0  WA: 0,0 640x480  Desktop"), "\(context)")
        // The stacking list, bottom to top, is the model's order (front to back) reversed.
        func stacking(_ marker: String) -> [String] {
            guard let line = Self.after(marker, in: out), let list = line.split(separator: "#").last else { return [] }
            return list.split(separator: ",").compactMap {
                UInt32($0.trimmingCharacters(in: .whitespaces).dropFirst(2), radix: 16).flatMap { ids[$0] }
            }
        }
        func modelOrder(_ marker: String) -> [String] {
            let model = Self.after(marker, in: out).map(Self.model) ?? [:]
            return model.sorted { $0.value.order > $1.value.order }.map(\.key)
        }
        #expect(stacking("== stacking").count == 2, "\(context)")
        #expect(stacking("== stacking") == modelOrder("== model"))
        #expect(stacking("== stacking after raise") == modelOrder("== model after raise"))
        #expect(stacking("== stacking after raise").last == "alpha")
        // xdotool: the search finds alpha; the active window is the model's key window; desktop 0.
        let model = Self.after("== model", in: out).map(Self.model) ?? [:]
        let key = try #require(model.first { $0.value.key }?.key, "\(context)")
        let active = Self.after("== active", in: out).flatMap { UInt32($0) }
        #expect(active.flatMap { ids[$0] } == key)
        #expect(Self.after("== search", in: out).flatMap { UInt32($0) }.flatMap { ids[$0] } == "alpha")
        #expect(out.contains("== desktop\n0\n0\n"))
        // wmctrl -r -e: the model frame, and X's geometry.
        let moved = Self.after("== moved", in: out).map(Self.model) ?? [:]
        #expect(moved["alpha"]?.frame == [50, 60, 300, 200])
        #expect(out.contains("Absolute upper-left X:  50") && out.contains("Absolute upper-left Y:  60"))
        // wmctrl -c: xclock closes on WM_DELETE_WINDOW (status 0); xdotool windowclose destroys
        // xterm's window; both are gone from the model and from wmctrl -l.
        #expect(out.contains("xclock ended with status 0"), "\(context)")
        #expect(out.contains("xterm ended"))
        #expect(!(Self.after("== after close", in: out) ?? "").contains("\"kind\":\"x11\""))
    }

    /// `_NET_ACTIVE_WINDOW` keeps the focus rule: `wmctrl -a` for a background xterm while another
    /// X client's xterm is key is refused (logged, the window demands attention); with no window
    /// key (both hidden by strata-ctl: iconic, still listed by `wmctrl -l`), `xdotool
    /// windowactivate` shows the xterm and makes it key.
    @Test(.enabled(if: installed(), missing))
    func activationByToolsFollowsTheFocusRule() async throws {
        let run = try StrataRun(
            ["--backend", "headless", "--size", "640x480"],
            command: [
                "sh", "-c",
                """
                ctl=\(Self.ctl)
                xterm -T alpha &
                until $ctl windows --json | grep -q '"key":true,[^}]*"title":"alpha"'; do sleep 0.05; done
                xterm -T gamma &
                until $ctl windows --json | grep -q '"key":true,[^}]*"title":"gamma"'; do sleep 0.05; done
                wmctrl -a alpha
                until xprop -name alpha _NET_WM_STATE | grep -q DEMANDS_ATTENTION; do sleep 0.05; done
                echo "== refused"; $ctl windows --json
                $ctl hide title:gamma; $ctl hide title:alpha
                echo "== hidden"; $ctl windows --json
                until xprop -name alpha WM_STATE | grep -q Iconic; do sleep 0.05; done
                echo "== listed while hidden"; wmctrl -l | grep -c ' alpha$'
                xdotool windowactivate "$(xdotool search --name '^alpha$')"
                until $ctl windows --json | grep -q '"key":true,[^}]*"title":"alpha"'; do sleep 0.05; done
                echo "== activated"; $ctl windows --json
                echo "== active"; xdotool getactivewindow; xdotool search --name '^alpha$'
                """,
            ])
        let result = await run.finish(timeout: 120)
        let out = result.stdout
        let context = "stdout: \(out.suffix(3000))\nstderr: \(result.stderr.suffix(2000))"
        #expect(result.stderr.contains("focus request refused: _NET_ACTIVE_WINDOW"), "\(context)")
        let refused = Self.after("== refused", in: out).map(Self.model) ?? [:]
        #expect(refused["gamma"]?.key == true && refused["alpha"]?.key == false, "\(context)")
        let hidden = Self.after("== hidden", in: out).map(Self.model) ?? [:]
        #expect(hidden.count == 2 && hidden.values.allSatisfy { !$0.key }, "no window key once both are hidden")
        #expect(Self.after("== listed while hidden", in: out) == "1", "wmctrl -l lists a minimized window")
        let activated = Self.after("== activated", in: out).map(Self.model) ?? [:]
        #expect(activated["alpha"]?.key == true)
        #expect(activated["alpha"]?.order == 0)
        let lines = out.split(separator: "\n")
        if let index = lines.firstIndex(of: "== active"), index + 2 < lines.count {
            #expect(lines[index + 1] == lines[index + 2], "xdotool getactivewindow is alpha")
        } else {
            Issue.record("no getactivewindow output: \(context)")
        }
    }
}
