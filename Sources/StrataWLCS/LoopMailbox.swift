import CStrataWLCS
import Foundation
import Glibc
import StrataServer

/// Hands closures from other threads to the compositor's loop thread: a locked queue plus an
/// eventfd watched by the display's loop (an `EventSource`). The loop thread runs the queued
/// closures when the eventfd becomes readable. Once closed, `post` refuses new work, so a
/// caller never waits for a loop that has ended.
final class LoopMailbox {
    private let fd: Int32
    private var lock = pthread_mutex_t()
    private var jobs: [() -> Void] = []
    private var isOpen = false
    private var source: EventSource?

    init() {
        fd = strata_wlcs_eventfd()
        pthread_mutex_init(&lock, nil)
    }

    deinit {
        pthread_mutex_destroy(&lock)
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Starts taking work on `display`'s loop. Call on the loop thread.
    func open(on display: Display) -> Bool {
        guard fd >= 0 else { return false }
        source = EventSource(display: display, fd: fd) { [unowned self] _ in self.drain() }
        guard source != nil else { return false }
        locked { isOpen = true }
        return true
    }

    /// Refuses new work, runs what is queued, and stops watching. Call on the loop thread,
    /// before the display is destroyed.
    func close() {
        locked { isOpen = false }
        drain()
        source?.remove()
        source = nil
    }

    /// Queues `job` for the loop thread; false when the mailbox is closed.
    func post(_ job: @escaping () -> Void) -> Bool {
        let accepted: Bool = locked {
            guard isOpen else { return false }
            jobs.append(job)
            return true
        }
        guard accepted else { return false }
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(fd, $0.baseAddress, 8) }
        return true
    }

    private func drain() {
        var counter: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &counter) { read(fd, $0.baseAddress, 8) }
        while true {
            let batch: [() -> Void] = locked {
                let batch = jobs
                jobs.removeAll()
                return batch
            }
            if batch.isEmpty { return }
            for job in batch { job() }
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return body()
    }
}
