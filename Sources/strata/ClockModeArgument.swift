import ArgumentParser
import StrataServer

/// `--clock realtime|manual`.
extension StrataServer.Clock.Mode: ExpressibleByArgument {}
