/// The pictures a recording has written (`image` lines, docs/experiments.md, "Pictures in a
/// trace"): each (kind, hash) once, within a byte budget.
final class TraceImages {
    /// The kinds of picture: a window alone at full size, a screen downscaled, a screen's last
    /// picture at full size.
    enum Kind: String {
        case window
        case thumbnail
        case screen
    }

    /// The most bytes of `image` lines a recording writes: a quarter of the trace's size limit,
    /// at most `defaultBudget`. Past it no picture is added (one line says so); hashes go on.
    var budget: Int
    static let defaultBudget = 64 * 1024 * 1024
    /// Bytes of `image` lines written.
    private(set) var bytes = 0
    /// Whether the budget was reached (and the line saying so written).
    var isExhausted = false
    private var written: Set<String> = []
    /// Screen thumbnails are at most this wide and high.
    static let thumbnailSide: Int32 = 320

    init(traceLimit: Int) {
        budget = min(Self.defaultBudget, traceLimit / 4)
    }

    func hasWritten(_ kind: Kind, _ hash: String) -> Bool { written.contains(kind.rawValue + hash) }

    /// Counts a line of `count` bytes for (kind, hash); false when it would pass the budget.
    func admit(_ kind: Kind, _ hash: String, bytes count: Int) -> Bool {
        guard !isExhausted, bytes + count <= budget else { return false }
        bytes += count
        written.insert(kind.rawValue + hash)
        return true
    }
}
