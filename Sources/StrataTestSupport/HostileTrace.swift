import Foundation

/// A hand-written trace with `payload` in every field the report reads (strings, and numbers
/// given as strings: ids, sequence numbers, sizes; pictures whose `png` is no base64 PNG), for tests that the report treats a trace as
/// untrusted input.
public enum HostileTrace {
    public static func text(payload: String) -> String {
        let p = payload
        let screen: [String: Any] = [
            "id": p, "name": p, "current": p, "bounds": ["x": 0, "y": 0, "width": p, "height": p],
        ]
        let goodScreen: [String: Any] = [
            "id": 1, "name": p, "current": p, "bounds": ["x": 0, "y": 0, "width": 640, "height": 480],
        ]
        let window: [String: Any] = [
            "id": p, "app_id": p, "title": p, "level": p, "key": true, "hidden": false, "screen": 1,
            "pid": p, "frame": ["x": p, "y": p, "width": p, "height": p],
        ]
        let lines: [[String: Any]] = [
            [
                "type": "header", "version": 1, "strata": p, "clock": p, "policy": p, "backend": p,
                "screens": [goodScreen, screen],
                "sequence": 0, "time_ns": 0, "command": [p],
            ],
            ["type": "windows", "sequence": p, "time_ns": p, "windows": [window]],
            [
                "type": "event", "name": "windowDidBecomeKey", "window": p, "screen": p, "to": p, "sequence": p,
                "time_ns": p,
            ],
            ["type": "event", "name": p, "window": p, "sequence": p, "time_ns": p],
            ["type": "event", "name": "windowDidChangeLevel", "window": p, "to": p, "sequence": p, "time_ns": p],
            ["type": "screen", "screen": screen, "sequence": p, "time_ns": p],
            // Pictures whose `png` is no base64 PNG: the page must never make them a source.
            [
                "type": "image", "kind": "thumbnail", "hash": p + "2", "width": p, "height": p, "png": p, "sequence": p,
                "time_ns": p,
            ],
            [
                "type": "image", "kind": "thumbnail", "hash": p, "width": 10, "height": 10,
                "png": "javascript:document.title='pwned'",
            ],
            [
                "type": "image", "kind": "thumbnail", "hash": p + "2", "width": 10, "height": 10,
                "png": "iVBORw0KGgo\"><script>" + p,
            ],
            ["type": "image", "kind": p, "hash": p, "png": p],
            ["type": "frame", "screen": p, "hash": p, "sequence": p, "time_ns": p],
            ["type": "frame", "screen": 1, "hash": p + "2", "sequence": p, "time_ns": p],
            ["type": "command", "request": ["command": "exec", "argv": [p], "cwd": p], "sequence": p, "time_ns": p],
            ["type": "command", "request": ["command": "make-key", "window": p], "sequence": p, "time_ns": p],
            ["type": "input", "input": p, "sequence": p, "time_ns": p],
            ["type": "client", "event": p, "pid": p, "app_id": p, "sequence": p, "time_ns": p],
            ["type": "end", "reason": p, "sequence": p, "time_ns": p],
        ]
        return lines.map { line in
            String(
                decoding: (try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]))
                    ?? Data("{}".utf8), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
    }
}
