/// When Strata starts Xwayland (`strata --xwayland`): at the first X connection (`lazy`, the
/// default: a start costs nothing more), at once (`eager`), or never (`off`: no DISPLAY).
public enum XwaylandMode: String, CaseIterable, Sendable {
    case lazy, eager, off
}
