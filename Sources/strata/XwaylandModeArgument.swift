import ArgumentParser
import StrataServer

/// `--xwayland lazy|eager|off`.
extension XwaylandMode: ExpressibleByArgument {}
