/// Splits an experiment line into words the way a shell would for simple commands: blanks
/// separate words, '…' quotes literally, "…" quotes with \" and \\ escapes, \ escapes one
/// character outside quotes, and a # at the start of a word begins a comment.
enum ShellWords {
    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    static func split(_ line: String) throws(SyntaxError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(line).makeIterator()
        while let c = iterator.next() {
            switch c {
            case " ", "\t", "\r", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                var closed = false
                while let q = iterator.next() {
                    if q == "'" { closed = true; break }
                    current.append(q)
                }
                guard closed else { throw SyntaxError(description: "unterminated ' quote") }
            case "\"":
                inWord = true
                var closed = false
                while let q = iterator.next() {
                    if q == "\"" { closed = true; break }
                    if q == "\\", let next = iterator.next() {
                        if next != "\"" && next != "\\" { current.append("\\") }
                        current.append(next)
                    } else {
                        current.append(q)
                    }
                }
                guard closed else { throw SyntaxError(description: "unterminated \" quote") }
            case "\\":
                inWord = true
                guard let next = iterator.next() else { throw SyntaxError(description: "a \\ ends the line") }
                current.append(next)
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
