import Glibc

/// `strata --ready-fd N`: the start-up's announcement on a descriptor the caller opened (as
/// Xvfb's `-displayfd`): the Wayland socket's name, then the X display, one line each, written
/// once clients can connect; then the descriptor is closed, so a reader sees the end of file.
/// The loop does not run yet, but nothing here waits: a descriptor that cannot take the lines at
/// once (a full pipe) gets a message on stderr instead.
enum ReadyDescriptor {
    static func announce(to fd: Int32, lines: [String]) {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        // A reader that went away is a failed write, not a SIGPIPE (as the XWM and the video
        // recorder have it; the processes Strata starts get the default back).
        signal(SIGPIPE, SIG_IGN)
        var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let written: Int
        if poll(&pending, 1, 0) == 1, pending.revents & Int16(POLLOUT) != 0 {
            written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        } else {
            written = -1
        }
        if written != bytes.count {
            Session.printError(
                "strata: --ready-fd \(fd): cannot write the ready lines (\(written < 0 ? "the descriptor is not writable now" : "short write"))"
            )
        }
        close(fd)
    }
}
