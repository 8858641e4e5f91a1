import FoundationEssentials
import StrataControlProtocol

/// `strata-ctl report TRACE -o report.html`: one self-contained HTML page (no network) that shows
/// a trace: each screen's windows as an exploded stack by level (the key window marked, hidden
/// windows greyed), a timeline of key, visibility, level, stacking and screen events (each with its
/// cause) and refused key requests to scrub,
/// and a thumbnail of each screen's picture at every point where it changed: the recorded
/// thumbnail (an `image` line), or, in a trace without one, the windows' frames drawn.
///
/// A trace is untrusted input (someone may send one): its data goes into the page only as JSON in
/// a `<script type="application/json">` element (escaped: `scriptSafe`), the page's script puts
/// it into the DOM only as text and DOM-set attributes (never as HTML), and the page's
/// Content-Security-Policy allows nothing but its own style and its one script (by hash), so
/// nothing from a trace runs and the page fetches nothing.
public enum TraceReport {
    /// The trace lines the page needs (header, events, window lists, screens, frames, commands
    /// and input described), as one JSON array safe inside a `<script>` element.
    static func embeddedData(_ trace: TraceFile) -> String {
        var kept: [JSONValue] = []
        for (index, line) in trace.lines.enumerated() {
            guard var fields = line.objectValue else { continue }
            switch fields["type"]?.stringValue ?? "" {
            case "header", "event", "windows", "screen", "end":
                break
            case "frame":
                fields["damage"] = nil
            case "image":
                // Screen thumbnails only (a window's full picture is for the replay), each field
                // checked: the page puts `png` into a data: URL only as base64 of a PNG.
                guard line["kind"] == "thumbnail", let hash = line["hash"]?.stringValue,
                    let png = line["png"]?.stringValue,
                    isBase64PNG(png)
                else { continue }
                fields = [
                    "type": "image", "kind": "thumbnail", "hash": .string(hash), "png": .string(png),
                    "width": line["width"] ?? .null, "height": line["height"] ?? .null,
                ]
            case "command":
                let name = line["request"]?["command"]?.stringValue ?? ""
                guard TraceFormat.replayedCommands.contains(name) else { continue }
                fields = [
                    "type": "command", "sequence": line["sequence"] ?? .null, "time_ns": line["time_ns"] ?? .null,
                    "text": .string(TraceFile.describe(line)),
                ]
            case "input", "client":
                fields = [
                    "type": line["type"] ?? .null, "sequence": line["sequence"] ?? .null,
                    "time_ns": line["time_ns"] ?? .null,
                    "text": .string(TraceFile.describe(line)),
                ]
            default:
                continue
            }
            fields["line"] = JSONValue(index)
            kept.append(.object(fields))
        }
        return scriptSafe(JSONValue.array(kept))
    }

    /// Whether `text` is base64 (the standard alphabet, padded) whose bytes start as a PNG does:
    /// what the page may put into a `data:image/png;base64,` URL.
    public static func isBase64PNG(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count % 4 == 0, text.hasPrefix("iVBORw0KGgo") else { return false }
        var padding = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "="): padding += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            default: return false
            }
        }
        return padding <= 2
    }

    /// JSON inside `<script type="application/json">`: `<`, `>`, `&` and the two line
    /// separators only occur inside JSON strings, where their `\uXXXX` escapes mean the same, so
    /// nothing of the data can close the element, open a comment or read as markup.
    static func scriptSafe(_ value: JSONValue) -> String {
        var json = ""
        for scalar in String(decoding: value.encodedLine(), as: UTF8.self).unicodeScalars {
            switch scalar {
            case "<": json += "\\u003c"
            case ">": json += "\\u003e"
            case "&": json += "\\u0026"
            case "\u{2028}": json += "\\u2028"
            case "\u{2029}": json += "\\u2029"
            case "\n": continue
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json
    }

    /// The page's Content-Security-Policy: nothing but its own style and its one inline script
    /// (named by hash), images only from data: URLs, no fetch, no form, no frame, no base.
    static var contentSecurityPolicy: String {
        let hash = Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
        return "default-src 'none'; script-src 'sha256-\(hash)'; style-src 'unsafe-inline'; img-src data:; "
            + "base-uri 'none'; form-action 'none'"
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }

    /// The page for `trace`; with a `divergence` (`strata-ctl replay --report`), a banner says
    /// what diverged and the page opens at that point of the timeline, marked.
    /// `pictures`: PNGs shown with the divergence (the recorded picture, the replayed one, their
    /// diff), each with its label.
    public static func html(
        for trace: TraceFile, divergence: TraceDivergence? = nil, pictures: [(label: String, png: Data)] = []
    ) -> String {
        let title = escapeHTML("Strata trace: " + trace.name)
        var marked: JSONValue = .null
        if let divergence {
            let embedded: [JSONValue] = pictures.compactMap { picture in
                let base64 = picture.png.base64EncodedString()
                return isBase64PNG(base64) ? ["label": .string(picture.label), "png": .string(base64)] : nil
            }
            marked = [
                "kind": .string(divergence.kind), "message": .string(divergence.message),
                "line": divergence.recordedIndex.map { JSONValue($0) } ?? .null, "pictures": .array(embedded),
            ]
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <title>\(title)</title>
            <meta name="viewport" content="width=device-width">
            <style>\(style)</style></head>
            <body>
            <header><h1>\(title)</h1><div id="summary"></div></header>
            <div id="divergence" hidden></div>
            <section id="scrub"><input id="slider" type="range" min="0" max="0" value="0" aria-label="timeline">
            <span id="position"></span></section>
            <main><nav id="timeline" aria-label="events"></nav><div id="screens"></div></main>
            \(focusPanel(for: trace))
            <section><h2>Pictures (where a screen's picture changed: the recorded thumbnail, or the windows' frames drawn)</h2><div id="frames"></div></section>
            <script id="trace" type="application/json">\(embeddedData(trace))</script>
            <script id="divergence-data" type="application/json">\(scriptSafe(marked))</script>
            <script>\(script)</script>
            </body></html>
            """
    }

    static let style = """
        body{font:13px/1.4 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2430}
        header{padding:10px 16px;background:#1d2430;color:#fff}h1{font-size:16px;margin:0 0 4px}
        h2{font-size:14px;margin:12px 16px 6px}#summary{opacity:.85}
        #scrub{padding:8px 16px;display:flex;gap:12px;align-items:center;background:#e6e9ef}#slider{flex:1}
        main{display:flex;gap:12px;padding:12px 16px;align-items:flex-start}
        #timeline{width:360px;max-height:70vh;overflow:auto;background:#fff;border:1px solid #cdd3dd}
        .point{padding:2px 8px;cursor:pointer;white-space:nowrap;border-left:4px solid transparent}
        .point.current{background:#dbe7ff}.k-key{border-color:#d4a017}.k-refusal{border-color:#b03a2e}.k-visibility{border-color:#3a8f3a}
        .k-level{border-color:#8a3ab9}.k-screen{border-color:#c0392b}.k-stacking{border-color:#2d6cdf}
        .k-windows{border-color:#555}.k-frame{border-color:#aab}.k-command{border-color:#0aa}
        #screens{flex:1;display:flex;flex-wrap:wrap;gap:12px}
        .screen{background:#fff;border:1px solid #cdd3dd;padding:8px;min-width:320px}
        .screen h3{margin:0 0 6px;font-size:13px}
        .level{margin:4px 0 4px calc(var(--depth) * 14px);padding:4px;border:1px dashed #9aa3b5;background:#f8f9fb;transform:skewX(-8deg)}
        .level>.name{font-size:11px;color:#667;transform:skewX(8deg)}
        .win{display:inline-block;margin:2px;padding:3px 6px;border:1px solid #556;background:var(--c);transform:skewX(8deg);color:#000}
        .win.key{outline:3px solid #d4a017}.win.hidden{opacity:.3;filter:grayscale(1)}
        .thumb{display:inline-block;margin:4px;text-align:center;font-size:11px;cursor:pointer}
        .thumb.current svg,.thumb.current img{outline:2px solid #2d6cdf}
        .pictures{display:flex;gap:12px;flex-wrap:wrap;font-weight:400;color:#1d2430}.picture{margin:6px 0}
        .picture img{max-width:320px;height:auto;border:1px solid #8a1010;background:#202428}
        svg{background:#202428}
        #divergence{padding:8px 16px;background:#fde2e1;color:#8a1010;font-weight:600;border-bottom:2px solid #c0392b}
        .point.diverged{background:#fde2e1;color:#8a1010;font-weight:600}
        #focus{padding:0 16px}#focus table{border-collapse:collapse;background:#fff}
        #focus td,#focus th{border:1px solid #cdd3dd;padding:2px 8px;text-align:left}
        """

    static let script = #"""
        "use strict";
        // The model of the page, without the DOM: points of the timeline, each with the state then.
        function strataReportModel(lines) {
          var header = lines.length ? lines[0] : {};
          var screens = {}, windows = [], hashes = {}, points = [], pictures = {};
          (Array.isArray(header.screens) ? header.screens : []).forEach(function (s) { if (s && typeof s === "object") { screens[s.id] = s; } });
          function snapshot(kind, text, line) {
            points.push({kind: kind, text: text, sequence: line.sequence || 0, time: line.time_ns || 0, screen: line.screen, line: line.line || 0,
                         windows: JSON.parse(JSON.stringify(windows)), screens: JSON.parse(JSON.stringify(screens)),
                         hashes: JSON.parse(JSON.stringify(hashes))});
          }
          var kinds = {windowDidBecomeKey: "key", windowDidResignKey: "key", windowDidBecomeVisible: "visibility",
                       windowDidBecomeHidden: "visibility", windowDidChangeLevel: "level", windowDidChangeStacking: "stacking",
                       windowDidOpen: "windows", windowDidClose: "windows", windowDidMoveToScreen: "screen",
                       keyRequestWasRefused: "refusal"};
          snapshot("start", "start of the trace", header);
          lines.forEach(function (line) {
            if (line.type === "windows") { windows = Array.isArray(line.windows) ? line.windows.filter(function (w) { return w && typeof w === "object"; }) : []; if (points.length) { points[points.length - 1].windows = JSON.parse(JSON.stringify(windows)); } }
            else if (line.type === "screen" && line.screen && typeof line.screen === "object") { screens[line.screen.id] = line.screen; }
            else if (line.type === "event") {
              if (line.name === "windowDidChangeFrame") {
                windows.forEach(function (w) { if (w.id === line.window && line.to) { w.frame = line.to; } });
              }
              if (line.name === "screenDidDisconnect") { delete screens[line.screen]; delete hashes[line.screen]; }
              var kind = Object.prototype.hasOwnProperty.call(kinds, line.name) ? kinds[line.name] : (String(line.name).indexOf("screen") === 0 ? "screen" : null);
              if (kind) {
                var subject = line.window !== undefined ? " window " + line.window : (line.screen !== undefined ? " screen " + line.screen : "");
                var extra = line.to !== undefined && typeof line.to !== "object" ? " → " + line.to : "";
                var cause = line.cause !== undefined ? " ← " + strataReportCause(line) : "";
                snapshot(kind, "#" + line.sequence + " " + line.name + subject + extra + cause, line);
              }
            } else if (line.type === "frame") {
              if (line.hash && hashes[line.screen] !== line.hash) {
                hashes[line.screen] = line.hash;
                snapshot("frame", "#" + line.sequence + " picture on screen " + line.screen + " " + line.hash, line);
              }
            } else if (line.type === "command") { snapshot("command", line.text, line); }
            else if (line.type === "image" && line.kind === "thumbnail" && typeof line.hash === "string" && strataReportIsPNG(line.png)) {
              pictures[line.hash] = {png: line.png, width: strataReportNumber(line.width), height: strataReportNumber(line.height)};
            }
          });
          // A window list written after an event belongs to that event's point (same sequence).
          for (var i = 0; i + 1 < points.length; i++) {
            if (points[i + 1].kind !== "frame" && points[i + 1].sequence === points[i].sequence) { points[i].windows = points[i + 1].windows; }
          }
          return {header: header, points: points, pictures: pictures};
        }

        // A change's cause in words: "click pointer-button 272 by user, decided by uikit".
        function strataReportCause(line) {
          var text = String(line.cause);
          if (line.request !== undefined) { text += " " + String(line.request); }
          if (line.requester !== undefined) { text += " by " + String(line.requester); }
          if (line.decided_by !== undefined) { text += ", decided by " + String(line.decided_by); }
          return text;
        }

        // Base64 of a PNG, nothing else, goes into a data: URL.
        function strataReportIsPNG(text) {
          return typeof text === "string" && text.length % 4 === 0 && /^iVBORw0KGgo[A-Za-z0-9+\/]*={0,2}$/.test(text);
        }

        // A picture from the trace (base64 PNG, checked) as an image element, its source set here.
        function strataReportImage(png, width, label) {
          var img = document.createElement("img");
          img.setAttribute("alt", String(label));
          img.setAttribute("width", String(width));
          if (strataReportIsPNG(png)) { img.setAttribute("src", "data:image/png;base64," + png); }
          return img;
        }

        // The recorded thumbnail of a screen's picture, else the windows' frames drawn.
        function strataReportPicture(model, point, screenID, width) {
          var hash = point.hashes[screenID];
          if (typeof hash === "string" && Object.prototype.hasOwnProperty.call(model.pictures, hash)) {
            return strataReportImage(model.pictures[hash].png, width, "screen " + screenID + " picture " + hash);
          }
          return strataReportThumb(point, screenID, width);
        }

        // Every value from the trace reaches the page as text (textContent) or as an attribute set
        // through the DOM, never through HTML: the trace is untrusted input.
        function strataReportNumber(value) { var n = Number(value); return isFinite(n) ? n : 0; }

        function strataReportColour(id) { var hue = (strataReportNumber(id) * 137) % 360; return "hsl(" + hue + ",60%,72%)"; }

        function strataReportElement(name, className, text) {
          var element = document.createElement(name);
          if (className) { element.className = className; }
          if (text !== undefined) { element.textContent = String(text); }
          return element;
        }

        function strataReportThumb(point, screenID, width) {
          var s = point.screens[screenID]; if (!s || !s.bounds) { return document.createTextNode(""); }
          var svgNS = "http://www.w3.org/2000/svg";
          var scale = width / Math.max(1, strataReportNumber(s.bounds.width)), height = Math.round(strataReportNumber(s.bounds.height) * scale);
          var svg = document.createElementNS(svgNS, "svg");
          svg.setAttribute("width", String(width)); svg.setAttribute("height", String(Math.max(0, height) || 0));
          svg.setAttribute("role", "img"); svg.setAttribute("aria-label", "screen " + String(s.name));
          point.windows.slice().reverse().forEach(function (w) {
            if (w.screen !== s.id || w.hidden || !w.frame) { return; }
            var rect = document.createElementNS(svgNS, "rect");
            rect.setAttribute("x", String(strataReportNumber(w.frame.x) * scale));
            rect.setAttribute("y", String(strataReportNumber(w.frame.y) * scale));
            rect.setAttribute("width", String(Math.max(1, strataReportNumber(w.frame.width) * scale)));
            rect.setAttribute("height", String(Math.max(1, strataReportNumber(w.frame.height) * scale)));
            rect.setAttribute("fill", strataReportColour(w.id));
            rect.setAttribute("stroke", w.key ? "#d4a017" : "#000");
            rect.setAttribute("stroke-width", w.key ? "3" : "1");
            svg.appendChild(rect);
          });
          return svg;
        }

        function strataReportLevelRank(name) {
          var named = {background: -2000, bottom: -1000, normal: 0, alert: 2000, statusBar: 1000};
          return Object.prototype.hasOwnProperty.call(named, name) ? named[name] : Number(name) || 0;
        }

        // The point a divergence at trace line `line` belongs to: the last point at or before it.
        function strataReportPointAt(points, line) {
          var found = 0;
          points.forEach(function (p, i) { if (p.line <= line) { found = i; } });
          return found;
        }

        function strataReportRender(model, divergence) {
          var points = model.points, slider = document.getElementById("slider"), timeline = document.getElementById("timeline");
          var h = model.header;
          document.getElementById("summary").textContent = "version " + h.version + " · Strata " + h.strata + " · clock " + h.clock +
            " · policy " + h.policy + " · " + (Array.isArray(h.screens) ? h.screens.length : 0) + " screen(s) · " + points.length + " points";
          slider.max = String(Math.max(0, points.length - 1));
          var diverged = divergence && divergence.line !== null ? strataReportPointAt(points, divergence.line) : -1;
          if (divergence) {
            var banner = document.getElementById("divergence");
            banner.hidden = false;
            banner.textContent = "The replay diverged (" + divergence.kind + "): " + divergence.message;
            if (Array.isArray(divergence.pictures) && divergence.pictures.length) {
              var row = strataReportElement("div", "pictures");
              divergence.pictures.forEach(function (picture) {
                if (!picture || !strataReportIsPNG(picture.png)) { return; }
                var figure = strataReportElement("figure", "picture");
                figure.appendChild(strataReportImage(picture.png, 320, String(picture.label)));
                figure.appendChild(strataReportElement("figcaption", "", String(picture.label)));
                row.appendChild(figure);
              });
              banner.appendChild(row);
            }
          }
          points.forEach(function (p, i) {
            var row = strataReportElement("div", "point k-" + String(p.kind) + (i === diverged ? " diverged" : ""),
                                          (i === diverged ? "✗ " : "") + String(p.text));
            row.setAttribute("data-i", String(i));
            timeline.appendChild(row);
          });
          var frames = document.getElementById("frames");
          points.forEach(function (p, i) {
            if (p.kind !== "frame") { return; }
            var thumb = strataReportElement("div", "thumb");
            thumb.setAttribute("data-i", String(i));
            thumb.appendChild(strataReportPicture(model, p, p.screen, 160));
            thumb.appendChild(document.createElement("br"));
            thumb.appendChild(document.createTextNode("#" + p.sequence + " screen " + p.screen + " " + (p.hashes[p.screen] || "")));
            frames.appendChild(thumb);
          });
          function show(i) {
            var p = points[i]; slider.value = String(i);
            document.getElementById("position").textContent = (i + 1) + " / " + points.length + " · #" + p.sequence + " · " +
              (strataReportNumber(p.time) / 1e6).toFixed(1) + " ms";
            Array.prototype.forEach.call(document.querySelectorAll(".point, .thumb"), function (el) {
              el.classList.toggle("current", Number(el.getAttribute("data-i")) === i);
            });
            var screens = document.getElementById("screens");
            screens.replaceChildren();
            Object.keys(p.screens).forEach(function (id) {
              var s = p.screens[id], mine = p.windows.filter(function (w) { return String(w.screen) === id; });
              var levels = {};
              mine.forEach(function (w) {
                var key = String(w.level);
                if (!Object.prototype.hasOwnProperty.call(levels, key)) { levels[key] = []; }
                levels[key].push(w);
              });
              var box = strataReportElement("div", "screen");
              box.appendChild(strataReportElement("h3", "", String(s.name) + " · " + String(s.current || "") +
                (p.hashes[id] ? " · picture " + p.hashes[id] : "")));
              box.appendChild(strataReportPicture(model, p, id, 320));
              var names = Object.keys(levels).sort(function (a, b) { return strataReportLevelRank(b) - strataReportLevelRank(a); });
              names.forEach(function (name, depth) {
                var level = strataReportElement("div", "level");
                level.style.setProperty("--depth", String(depth));
                level.appendChild(strataReportElement("div", "name", "level " + name));
                levels[name].forEach(function (w) {
                  var win = strataReportElement("span", "win" + (w.key ? " key" : "") + (w.hidden ? " hidden" : ""),
                    w.id + " " + (w.app_id || "") + (w.key ? " ★ key" : "") + (w.hidden ? " (hidden)" : ""));
                  win.style.setProperty("--c", strataReportColour(w.id));
                  win.title = String(w.title || "");
                  level.appendChild(win);
                });
                box.appendChild(level);
              });
              if (!names.length) { box.appendChild(strataReportElement("em", "", "no windows")); }
              screens.appendChild(box);
            });
            if (!screens.firstChild) { screens.appendChild(strataReportElement("em", "", "no screens")); }
          }
          slider.addEventListener("input", function () { show(Number(slider.value)); });
          function pick(event) { var el = event.target.closest("[data-i]"); if (el) { show(Number(el.getAttribute("data-i"))); } }
          timeline.addEventListener("click", pick);
          frames.addEventListener("click", pick);
          if (points.length) { show(diverged >= 0 ? diverged : points.length - 1); }
        }

        if (typeof document !== "undefined") {
          strataReportRender(strataReportModel(JSON.parse(document.getElementById("trace").textContent)),
                             JSON.parse(document.getElementById("divergence-data").textContent));
        }
        """#
}
