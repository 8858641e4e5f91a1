import StrataControlProtocol
import StrataModel

/// Plain aligned columns, a header first (as `swaymsg -t get_outputs` or `hyprctl` print).
struct Table {
    var header: [String]
    var rows: [[String]] = []

    var text: String {
        let all = [header] + rows
        var widths = header.map(\.count)
        for row in all {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(to: widths[index])
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func windows(_ windows: [WindowInfo]) -> String {
        var table = Table(header: [
            "ID", "APP_ID", "TITLE", "PID", "LEVEL", "ORDER", "KEY", "HIDDEN", "SCREEN", "FRAME", "KIND", "MODAL",
            "PARENT",
        ])
        for w in windows {
            table.rows.append([
                String(w.id), w.appID.isEmpty ? "-" : w.appID, w.title.isEmpty ? "-" : w.title, String(w.pid), w.level,
                String(w.order), w.key ? "yes" : "no", w.hidden ? "yes" : "no", w.screen.map(String.init) ?? "-",
                rect(w.frame), w.kind ?? "-", w.modal == true ? "yes" : "no", w.parent.map(String.init) ?? "-",
            ])
        }
        return table.text
    }

    /// `2`, `1.5`, `1.33` (at most two decimals).
    static func scaleText(_ scale: Double) -> String {
        scale == scale.rounded() ? String(Int(scale)) : String((scale * 100).rounded() / 100)
    }

    static func screens(_ screens: [ScreenInfo]) -> String {
        var table = Table(header: [
            "ID", "NAME", "CURRENT", "MODES", "SCALE", "TRANSFORM", "BRIGHTNESS", "OVERSCAN", "MIRRORING", "MAIN",
            "BOUNDS",
        ])
        for s in screens {
            table.rows.append([
                String(s.id), s.name, s.current ?? "-", s.modes.joined(separator: ","), scaleText(s.scale), s.transform,
                String(s.brightness), overscanText(s), s.mirroring ? "yes" : (s.mirrorsWhenEmpty ? "no" : "off"),
                s.main ? "yes" : "no",
                rect(s.bounds),
            ])
        }
        return table.text
    }

    /// `-` without overscan, else `5% scale`, `5% inset`, `5% none`.
    static func overscanText(_ s: ScreenInfo) -> String {
        guard s.overscan > 0 else { return "-" }
        let percent = s.overscan == s.overscan.rounded() ? String(Int(s.overscan)) : String(s.overscan)
        return "\(percent)% \(s.overscanCompensation)"
    }

    /// `x,y WxH`.
    static func rect(_ r: Rect) -> String { "\(r.x),\(r.y) \(r.width)x\(r.height)" }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
