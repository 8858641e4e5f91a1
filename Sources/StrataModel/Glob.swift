/// A pattern of window titles and accessible names: `*` matches any run of characters (none
/// included), every other character itself. Both sides are untrusted (a client chose the text,
/// a user or a trace the pattern), so a match costs their lengths, never more.
public enum Glob {
    /// Whether `text` matches `pattern`, where `*` matches any run of characters (none
    /// included) and every other character itself, compared as UTF-8 bytes. The pieces between
    /// the stars are found left to right, each at its first place after the one before (which
    /// is enough when `*` is the only wildcard): the first piece must start the text, the last
    /// must end it.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        guard pattern.contains("*") else { return pattern == text }
        let pieces = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        let t = Array(text.utf8)
        guard let first = pieces.first, let last = pieces.last,
            t.count >= first.count + last.count,
            t.starts(with: first), t.suffix(last.count).elementsEqual(last)
        else { return false }
        var position = first.count
        let end = t.count - last.count
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = Self.firstIndex(of: piece, in: t, from: position, before: end) else { return false }
            position = found + piece.count
        }
        return true
    }

    /// Where `piece` first stands in `text[from..<before]`: Knuth-Morris-Pratt, so a title a
    /// client chose costs its length plus the piece's, whatever both hold.
    private static func firstIndex(of piece: [UInt8], in text: [UInt8], from: Int, before end: Int) -> Int? {
        guard piece.count <= end - from else { return nil }
        // fallback[i]: the length of the longest proper prefix of piece[0...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: piece.count)
        var length = 0
        for i in 1..<max(1, piece.count) {
            while length > 0, piece[i] != piece[length] { length = fallback[length - 1] }
            if piece[i] == piece[length] { length += 1 }
            fallback[i] = length
        }
        var matched = 0
        for index in from..<end {
            while matched > 0, text[index] != piece[matched] { matched = fallback[matched - 1] }
            if text[index] == piece[matched] { matched += 1 }
            if matched == piece.count { return index - piece.count + 1 }
        }
        return nil
    }
}
