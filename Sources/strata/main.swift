import ArgumentParser
import Glibc

// The `strata` executable: parse the command line, then run the compositor on this thread.
//
// The signals the event loop handles (SIGCHLD, SIGINT, SIGTERM) are blocked first, before any
// other thread can exist, so every thread inherits the mask and the loop's signalfds see them
// all; a signal that arrives before the loop is ready stays pending instead of being lost.
HandledSignals.block()
// Every client is a file descriptor: 1,000 clients need more than the usual soft limit of 1,024.
FileLimit.raise()
// A common command line is parsed by hand (`parseCommonArguments`: the same command, about half
// of a start's instructions less); anything else by swift-argument-parser, as `main()` does.
if let command = StrataCommand.parseCommonArguments(CommandLine.arguments.dropFirst()) {
    do {
        try command.run()
    } catch let code as ExitCode {
        exit(code.rawValue)
    } catch {
        StrataCommand.exit(withError: error)
    }
} else {
    StrataCommand.main()
}
