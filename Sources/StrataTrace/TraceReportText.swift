import StrataControlProtocol

/// Trace text put on a terminal: control characters shown as `?` (a trace is untrusted, and
/// its strings must not drive the terminal).
public enum TraceReportText {
    public static func plain(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) ? "?" : $0 }))
    }
}
