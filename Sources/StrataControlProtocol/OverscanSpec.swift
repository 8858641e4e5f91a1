import StrataModel

/// `PERCENT[:scale|inset|none]`, the way an overscan is written on the command line
/// (`strata --overscan`, `strata-ctl screen add --overscan`): e.g. `5`, `5:inset`, `2.5:none`.
public struct OverscanSpec: Equatable, Sendable {
    public var percent: Double
    public var compensation: OverscanCompensation

    public static let requirement =
        "an overscan is PERCENT[:scale|inset|none] with a percentage from 0 to \(Int(Screen.overscanRange.upperBound)), e.g. 5 or 5:inset"

    public init(percent: Double, compensation: OverscanCompensation = .scale) {
        self.percent = percent
        self.compensation = compensation
    }

    /// Parses `5`, `5:scale`, `5:inset`, `5:none`; nil when malformed or out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let percent = Double(parts[0]), percent.isFinite,
            Screen.overscanRange.contains(percent)
        else { return nil }
        self.percent = percent
        if parts.count == 2 {
            guard let compensation = OverscanCompensation(rawValue: String(parts[1])) else { return nil }
            self.compensation = compensation
        } else {
            compensation = .scale
        }
    }
}
